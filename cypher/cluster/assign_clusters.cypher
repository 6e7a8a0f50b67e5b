// One batch of new members of existing clusters. $rows: [{cid, ids: [internal unit ids]}].
// The cluster's size is counted again from its members.
UNWIND $rows AS row
MATCH (c:Cluster {cid: row.cid})
CALL (c, row) {
  UNWIND row.ids AS uid
  MATCH (u:Unit) WHERE id(u) = uid
  CREATE (u)-[:IN_CLUSTER]->(c)
}
SET c.size = COUNT { (:Unit)-[:IN_CLUSTER]->(c) }
