// Undo a failed load, step 4 (after its arguments and units): the sources corpus $cid created
// that no other corpus still loaded uses (an argument FROM it, or an edge another corpus
// wrote, as undo_units.cypher tests use), with the edges $cid drew to them (a unit of another
// corpus hung on a new source of this load). Needs an auto-commit session.
MATCH (s:Source {corpus: $cid})
WHERE NOT EXISTS {
  MATCH (s)-[r]-(x)
  WITH coalesce(r.corpus, x.corpus) AS owner
  WHERE owner IS NULL OR (owner <> $cid AND EXISTS { (:Corpus {cid: owner}) })
}
CALL (s) {
  DETACH DELETE s
} IN TRANSACTIONS OF 5000 ROWS
