// Claim frequencies (cf_pro, cf_con) of some premise clusters, as premise_cluster_stats.cypher
// computes them for all. $cids: cluster ids.
UNWIND $cids AS cid
MATCH (pc:Cluster {cid: cid})
CALL (pc) {
  OPTIONAL MATCH (pc)<-[:IN_CLUSTER]-(:Unit)-[r:PREMISE_OF]->(:Argument)-[:CONCLUDES]->(:Unit)
                 -[:IN_CLUSTER]->(cc:ClaimCluster)
  RETURN count(DISTINCT CASE r.stance WHEN 'pro' THEN cc END) AS pro,
         count(DISTINCT CASE r.stance WHEN 'con' THEN cc END) AS con
}
SET pc.cf_pro = pro, pc.cf_con = con
