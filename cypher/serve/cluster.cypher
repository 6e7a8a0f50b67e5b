// One cluster (GET /api/v1/clusters/{cid}) with at most $limit members, highest PageRank first.
MATCH (c:Cluster {cid: $cid})
CALL (c) {
  OPTIONAL MATCH (u:Unit)-[:IN_CLUSTER]->(c)
  WITH u ORDER BY coalesce(u.pagerank, -1.0) DESC, u.uid LIMIT $limit
  RETURN collect({key: u.uid, text: u.text, pagerank: u.pagerank}) AS members
}
RETURN c.cid AS cid, c.kind AS kind, c.method AS method,
       COUNT { (:Unit)-[:IN_CLUSTER]->(c) } AS size, c.cf_pro AS cf_pro, c.cf_con AS cf_con,
       members
