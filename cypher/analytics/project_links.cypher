// The undirected unit graph for communities, components and betweenness, projected into GDS as
// $graph: every unit; an edge premise - conclusion for each argument, and one per SAME_AS edge
// (semantic reuse), so paraphrases of one claim join the same part of the debate.
MATCH (u:Unit)
CALL (u) {
  OPTIONAL MATCH (u)-[:PREMISE_OF]->(:Argument)-[:CONCLUDES]->(c:Unit)
  WHERE c <> u
  RETURN c AS other
  UNION ALL
  MATCH (u)-[:SAME_AS]->(c:Unit)
  RETURN c AS other
}
WITH gds.graph.project($graph, u, other, {}, {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relationships
