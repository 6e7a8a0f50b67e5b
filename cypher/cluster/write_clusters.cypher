// One batch of cluster memberships. $rows: [{cid, ids: [internal unit ids]}]; $kind, $method.
// Clusters also carry a kind label (ClaimCluster / PremiseCluster) so counts come from the store.
UNWIND $rows AS row
CREATE (c:Cluster {cid: row.cid, kind: $kind, method: $method, size: size(row.ids)})
SET c:$(CASE $kind WHEN 'claim' THEN 'ClaimCluster' ELSE 'PremiseCluster' END)
WITH c, row
UNWIND row.ids AS uid
MATCH (u:Unit) WHERE id(u) = uid
CREATE (u)-[:IN_CLUSTER]->(c)
