// The directed unit graph for GDS PageRank, projected as $graph: every unit, an edge
// conclusion -> premise for each argument (the direction of argkb's own unit graph,
// argkb.rank.pagerank.unit_edges), exact reuse only (no SAME_AS), like `argkb pagerank`'s default.
MATCH (u:Unit)
OPTIONAL MATCH (u)<-[:CONCLUDES]-(:Argument)<-[:PREMISE_OF]-(p:Unit)
WHERE p <> u
WITH gds.graph.project($graph, u, p) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relationships
