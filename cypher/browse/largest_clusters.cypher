// Largest clusters
// Shows: the clusters of kind $kind ('claim' or 'premise') with the most members, each with its
//   claim frequency and the text of its highest-PageRank member.
// Returns: table
// Parameters:
//   $kind (string): 'claim' or 'premise'
//   $limit (integer, default 25): at most this many clusters
// :param kind => 'premise'
// :param limit => 25
MATCH (c:Cluster {kind: $kind})
CALL (c) {
  MATCH (u:Unit)-[:IN_CLUSTER]->(c)
  WITH u ORDER BY coalesce(u.pagerank, -1.0) DESC, u.uid
  RETURN count(u) AS members, head(collect(u.text)) AS sample
}
RETURN c.cid AS cid, members, c.cf_pro AS cf_pro, c.cf_con AS cf_con, sample
ORDER BY members DESC, c.cid
LIMIT $limit
