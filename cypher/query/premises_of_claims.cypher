// Every premise used for the given claims, with its stance, argument and premise cluster
// (cf_pro / cf_con: corpus-wide claim frequencies of that cluster).
// premise_key: the premise's Unit.uid, stable across reloads (internal ids are not), which
// orders candidates and breaks ties.
// One row of equal-length lists, an edge per position (cypher.read_columns); collect() drops
// nulls, so an unclustered premise has cluster '' and cf_pro = cf_con = -1.
// $collection (a Source.sid prefix, or null) keeps only arguments from matching sources.
UNWIND $claims AS cid
MATCH (c:Unit)<-[:CONCLUDES]-(a:Argument)<-[r:PREMISE_OF]-(p:Unit)
WHERE id(c) = cid AND p <> c
  AND ($collection IS NULL
       OR EXISTS { (a)-[:FROM]->(s:Source) WHERE s.sid STARTS WITH $collection })
OPTIONAL MATCH (p)-[:IN_CLUSTER]->(pc:PremiseCluster)
RETURN collect(cid) AS claim, collect(id(p)) AS premise, collect(p.uid) AS premise_key,
       collect(coalesce(r.stance, 'unknown')) AS stance,
       collect(coalesce(r.stance_source, 'data')) AS stance_source, collect(a.aid) AS argument,
       collect(coalesce(pc.cid, '')) AS cluster, collect(coalesce(pc.cf_pro, -1)) AS cf_pro,
       collect(coalesce(pc.cf_con, -1)) AS cf_con
