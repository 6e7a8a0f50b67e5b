// Undo a failed load (or drop a corpus), steps 5 and 6 (after its arguments, units and
// sources), rendered once for {{label}} = Unit and then for Source (a source's users include the
// units handed over just before): the nodes corpus $cid created that other corpora still use
// pass to one of those corpora (the smallest id that is still loaded), with the edges $cid wrote
// on them, so that dropping that corpus later removes them too. Users are as undo_units.cypher
// tests use: the corpus that drew an edge (its `corpus`), else the corpus of its other end
// (an argument FROM a source, an edge from before edges named their writer). One label a
// statement, so that its corpus index serves. Needs an auto-commit session. Returns the heirs,
// whose counts change (argkb.ingest.undo_load recounts them).
MATCH (n:{{label}} {corpus: $cid})
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
  RETURN DISTINCT heir
} IN TRANSACTIONS OF 1000 ROWS
RETURN DISTINCT heir
