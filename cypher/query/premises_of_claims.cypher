// Every premise used for the given claims, with its stance, argument and premise cluster
// (cf_pro / cf_con: corpus-wide claim frequencies of that cluster).
// $collection (a Source.sid prefix, or null) keeps only arguments from matching sources.
UNWIND $claims AS cid
MATCH (c:Unit)<-[:CONCLUDES]-(a:Argument)<-[r:PREMISE_OF]-(p:Unit)
WHERE id(c) = cid AND p <> c
  AND ($collection IS NULL
       OR EXISTS { (a)-[:FROM]->(s:Source) WHERE s.sid STARTS WITH $collection })
OPTIONAL MATCH (p)-[:IN_CLUSTER]->(pc:PremiseCluster)
RETURN cid AS claim, id(p) AS premise, r.stance AS stance,
       coalesce(r.stance_source, 'data') AS stance_source, a.aid AS argument,
       pc.cid AS cluster, pc.cf_pro AS cf_pro, pc.cf_con AS cf_con
