// One batch of cluster memberships. $rows: [{cid, ids: [internal unit ids]}]; $kind, $method.
// Clusters also carry a kind label (ClaimCluster / PremiseCluster) so counts come from the store,
// and a size label (ClusterOf1, ClusterOf2to4, ClusterOf5to19, ClusterOf20to99, ClusterOf100plus)
// by which Neo4j Browser's style draws a cluster larger the more members it has (its style
// language selects by label only); cluster/assign_clusters.cypher keeps it up to date.
UNWIND $rows AS row
WITH row, size(row.ids) AS members
CREATE (c:Cluster {cid: row.cid, kind: $kind, method: $method, size: members})
SET c:$(CASE $kind WHEN 'claim' THEN 'ClaimCluster' ELSE 'PremiseCluster' END),
    c:$(CASE WHEN members >= 100 THEN 'ClusterOf100plus' WHEN members >= 20 THEN 'ClusterOf20to99'
             WHEN members >= 5 THEN 'ClusterOf5to19' WHEN members >= 2 THEN 'ClusterOf2to4'
             ELSE 'ClusterOf1' END)
WITH c, row
UNWIND row.ids AS uid
MATCH (u:Unit) WHERE id(u) = uid
CREATE (u)-[:IN_CLUSTER]->(c)
