// Undo a failed load, step 2 (after its arguments): the units corpus $cid created, unless
// another corpus uses them: an argument, or a link or provenance edge to a node of another
// corpus that this load did not write itself (derived edges, clusters, SAME_AS and the unit's
// own sentences, do not count; its sentences go with it; a FROM edge or link written by $cid
// says so in its `corpus`, one from before edges named their corpus counts as use). Needs an
// auto-commit session.
MATCH (u:Unit {corpus: $cid})
WHERE NOT EXISTS { (u)-[:CONCLUDES|PREMISE_OF]-(:Argument) }
  AND NOT EXISTS {
    MATCH (u)-[r]-(x)
    WHERE NOT type(r) IN ['IN_CLUSTER', 'SAME_AS'] AND NOT x:Sentence
      AND coalesce(x.corpus, '') <> $cid AND coalesce(r.corpus, '') <> $cid
  }
CALL (u) {
  CALL (u) {
    MATCH (s:Sentence)-[:IN]->(u)
    DETACH DELETE s
  }
  DETACH DELETE u
} IN TRANSACTIONS OF 5000 ROWS
