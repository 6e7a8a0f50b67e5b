// The benchmark units of Webis-ArgRank-17 as stored: PageRank, AIFdb maps, premise uses.
UNWIND $uids AS uid
MATCH (u:Unit {uid: uid})
RETURN u.argrank_id AS argrank_id, id(u) AS node, u.pagerank AS pagerank,
       u.aifdb_map_ids AS maps, COUNT { (u)-[:PREMISE_OF]->() } AS premise_uses
