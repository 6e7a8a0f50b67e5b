// One batch of new members of existing clusters. $rows: [{cid, ids: [internal unit ids]}].
// The cluster's size is counted again from its members, and its size label (see
// cluster/write_clusters.cypher) follows it.
UNWIND $rows AS row
MATCH (c:Cluster {cid: row.cid})
CALL (c, row) {
  UNWIND row.ids AS uid
  MATCH (u:Unit) WHERE id(u) = uid
  CREATE (u)-[:IN_CLUSTER]->(c)
}
WITH c, COUNT { (:Unit)-[:IN_CLUSTER]->(c) } AS members
SET c.size = members
REMOVE c:ClusterOf1:ClusterOf2to4:ClusterOf5to19:ClusterOf20to99:ClusterOf100plus
SET c:$(CASE WHEN members >= 100 THEN 'ClusterOf100plus' WHEN members >= 20 THEN 'ClusterOf20to99'
             WHEN members >= 5 THEN 'ClusterOf5to19' WHEN members >= 2 THEN 'ClusterOf2to4'
             ELSE 'ClusterOf1' END)
