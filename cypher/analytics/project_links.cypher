// The undirected unit graph for communities, components and betweenness, projected into GDS as
// $graph: every unit; an edge premise - conclusion for each argument (for an undercut, which
// concludes nothing, premise - the conclusion of the argument it attacks, through at most 8
// undercuts of undercuts), and one per SAME_AS
// edge (semantic reuse), so paraphrases of one claim join the same part of the debate. A pair of units
// linked twice (two arguments, or an argument and SAME_AS) is one link: betweenness counts
// shortest paths, and a doubled link would count each path through it twice.
MATCH (u:Unit)
CALL (u) {
  OPTIONAL MATCH (u)-[:PREMISE_OF]->(:Argument)-[:CONCLUDES]->(c:Unit)
  WHERE c <> u
  RETURN c AS other
  UNION ALL
  MATCH (u)-[:PREMISE_OF]->(:Argument)-[:UNDERCUTS]->{1,8}(:Argument)-[:CONCLUDES]->(c:Unit)
  WHERE c <> u
  RETURN c AS other
  UNION ALL
  MATCH (u)-[:SAME_AS]->(c:Unit)
  RETURN c AS other
}
WITH u, other, other IS NULL OR elementId(u) < elementId(other) AS forward
WITH DISTINCT CASE WHEN forward THEN u ELSE other END AS a,
              CASE WHEN forward THEN other ELSE u END AS b
WITH gds.graph.project($graph, a, b, {}, {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relationships
