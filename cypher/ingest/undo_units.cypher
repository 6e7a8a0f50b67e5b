// Undo a failed load, step 3 (after its arguments): the units corpus $cid created, unless
// another corpus still loaded uses them: an argument, or an edge that corpus wrote (a link or
// provenance edge names its writer in `corpus`; an edge from before edges named their writer
// counts for the corpus of its other end, and one between nodes of no corpus counts). Derived
// edges (clusters, SAME_AS) and the unit's own sentences do not count; its sentences go with
// it. The same test of use passes the units that stay to a user (undo_handover.cypher).
// Needs an auto-commit session.
MATCH (u:Unit {corpus: $cid})
WHERE NOT EXISTS { (u)-[:CONCLUDES|PREMISE_OF]-(:Argument) }
  AND NOT EXISTS {
    MATCH (u)-[r]-(x)
    WHERE NOT type(r) IN ['IN_CLUSTER', 'SAME_AS'] AND NOT x:Sentence
    WITH coalesce(r.corpus, x.corpus) AS owner
    WHERE owner IS NULL OR (owner <> $cid AND EXISTS { (:Corpus {cid: owner}) })
  }
CALL (u) {
  CALL (u) {
    MATCH (s:Sentence)-[:IN]->(u)
    DETACH DELETE s
  }
  DETACH DELETE u
} IN TRANSACTIONS OF 5000 ROWS
