// Undo a failed load (or drop a corpus), step 5 (after its arguments, units and sources): the
// units corpus $cid created that other corpora still use (as undo_units.cypher tests use) pass
// to one of those corpora (the smallest id that is still loaded), with the edges $cid wrote on
// them, so that dropping that corpus later removes them too. Then the sources
// (undo_handover_sources.cypher), whose users include these units. Needs an auto-commit session.
MATCH (n:Unit {corpus: $cid})
CALL (n) {
  MATCH (n)-[r]-(x)
  WHERE NOT type(r) IN ['IN_CLUSTER', 'SAME_AS'] AND NOT x:Sentence
  WITH n, collect(DISTINCT coalesce(r.corpus, x.corpus)) AS owners
  WITH n, [c IN owners WHERE c <> $cid AND EXISTS { (:Corpus {cid: c}) }] AS users
  WHERE size(users) > 0
  WITH n, reduce(heir = head(users), c IN users | CASE WHEN c < heir THEN c ELSE heir END) AS heir
  SET n.corpus = heir
  WITH n, heir
  OPTIONAL MATCH (n)-[r {corpus: $cid}]-()
  SET r.corpus = heir
} IN TRANSACTIONS OF 1000 ROWS
