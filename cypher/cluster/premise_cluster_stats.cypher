// Claim frequency of each premise cluster (Dumani et al. 2020, Sec. 4.2, ii): the number of claim
// clusters its premises support (cf_pro) or attack (cf_con).
MATCH (pc:PremiseCluster)
CALL (pc) {
  OPTIONAL MATCH (pc)<-[:IN_CLUSTER]-(:Unit)-[r:PREMISE_OF]->(:Argument)-[:CONCLUDES]->(:Unit)
                 -[:IN_CLUSTER]->(cc:ClaimCluster)
  RETURN count(DISTINCT CASE r.stance WHEN 'pro' THEN cc END) AS pro,
         count(DISTINCT CASE r.stance WHEN 'con' THEN cc END) AS con
}
SET pc.cf_pro = pro, pc.cf_con = con
