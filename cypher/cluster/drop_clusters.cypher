// Remove the clusters of one kind (claim or premise) before writing new ones.
MATCH (c:Cluster {kind: $kind})
CALL (c) { DETACH DELETE c } IN TRANSACTIONS OF 5000 ROWS
