// Every argument the given premises are used in: the claim it concludes, the premise's stance
// towards it and the premise's cluster (cf_pro / cf_con: corpus-wide claim frequencies).
// One row of equal-length lists, an edge per position (cypher.read_columns); collect() drops
// nulls, so an unclustered premise has cluster '' and cf_pro = cf_con = -1.
// $collection (a Source.sid prefix, or null) keeps only arguments from matching sources.
UNWIND $ids AS pid
MATCH (p:Unit)-[r:PREMISE_OF]->(a:Argument)-[:CONCLUDES]->(c:Unit)
WHERE id(p) = pid AND p <> c
  AND ($collection IS NULL
       OR EXISTS { (a)-[:FROM]->(s:Source) WHERE s.sid STARTS WITH $collection })
OPTIONAL MATCH (p)-[:IN_CLUSTER]->(pc:PremiseCluster)
RETURN collect(id(c)) AS claim, collect(pid) AS premise,
       collect(coalesce(r.stance, 'unknown')) AS stance,
       collect(coalesce(r.stance_source, 'data')) AS stance_source, collect(a.aid) AS argument,
       collect(coalesce(pc.cid, '')) AS cluster, collect(coalesce(pc.cf_pro, -1)) AS cf_pro,
       collect(coalesce(pc.cf_con, -1)) AS cf_con
