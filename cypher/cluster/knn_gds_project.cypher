// Project every unit of one label that has an embedding into GDS as $graph: nodes only, with
// their embedding, for K-Nearest Neighbors. {{label}}: Claim|Premise.
MATCH (u:{{label}})
WHERE u.embedding IS NOT NULL
WITH gds.graph.project($graph, u, null, {sourceNodeProperties: u {.embedding}, targetNodeProperties: null}) AS g
RETURN g.nodeCount AS nodes
