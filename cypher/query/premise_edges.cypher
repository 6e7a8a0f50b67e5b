// Every argument the given premises are used in: the claim it concludes, the premise's stance
// towards it and the premise's cluster (cf_pro / cf_con: corpus-wide claim frequencies).
// $collection (a Source.sid prefix, or null) keeps only arguments from matching sources.
UNWIND $ids AS pid
MATCH (p:Unit)-[r:PREMISE_OF]->(a:Argument)-[:CONCLUDES]->(c:Unit)
WHERE id(p) = pid AND p <> c
  AND ($collection IS NULL
       OR EXISTS { (a)-[:FROM]->(s:Source) WHERE s.sid STARTS WITH $collection })
OPTIONAL MATCH (p)-[:IN_CLUSTER]->(pc:PremiseCluster)
RETURN id(c) AS claim, pid AS premise, r.stance AS stance,
       coalesce(r.stance_source, 'data') AS stance_source, a.aid AS argument,
       pc.cid AS cluster, pc.cf_pro AS cf_pro, pc.cf_con AS cf_con
