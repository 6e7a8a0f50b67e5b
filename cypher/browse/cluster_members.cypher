// A cluster's members and frequency
// Shows: the units of the cluster $cid (from `argkb cluster`: same meaning, other words), highest
//   PageRank first, with how often each is used as a premise and concluded by an argument, and the
//   cluster's claim frequency (cf_pro, cf_con: how many claim clusters its premises support or
//   attack; Dumani et al. 2020). Find cluster ids with "Largest clusters".
// Returns: table
// Parameters:
//   $cid (string): the cluster id, e.g. 'premise:3'
// :param cid => 'premise:0'
MATCH (c:Cluster {cid: $cid})<-[:IN_CLUSTER]-(u:Unit)
RETURN c.cid AS cid, c.kind AS kind, c.size AS size, c.cf_pro AS cf_pro, c.cf_con AS cf_con,
       u.uid AS uid, u.text AS member, u.pagerank AS pagerank,
       COUNT { (u)-[:PREMISE_OF]->(:Argument) } AS premise_of,
       COUNT { (u)<-[:CONCLUDES]-(:Argument) } AS concluded_by
ORDER BY coalesce(u.pagerank, -1.0) DESC, u.uid
