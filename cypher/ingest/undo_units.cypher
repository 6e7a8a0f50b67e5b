// Undo a failed load, step 2 (after its arguments): the units corpus $cid created, unless
// another corpus uses them: an argument, or a link or provenance edge to a node of another
// corpus (derived edges, clusters and SAME_AS, do not count). Needs an auto-commit session.
MATCH (u:Unit {corpus: $cid})
WHERE NOT EXISTS { (u)-[:CONCLUDES|PREMISE_OF]-(:Argument) }
  AND NOT EXISTS {
    MATCH (u)-[r]-(x)
    WHERE NOT type(r) IN ['IN_CLUSTER', 'SAME_AS'] AND coalesce(x.corpus, '') <> $cid
  }
CALL (u) {
  DETACH DELETE u
} IN TRANSACTIONS OF 5000 ROWS
