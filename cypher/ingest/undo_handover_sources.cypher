// Undo a failed load (or drop a corpus), step 6: the sources corpus $cid created that other
// corpora still use (their arguments FROM them, or edges they wrote, such as a unit's FROM edge,
// the units handed over just before among them) pass to one of those corpora (the smallest id
// that is still loaded), with the edges $cid wrote on them. Needs an auto-commit session.
MATCH (n:Source {corpus: $cid})
CALL (n) {
  MATCH (n)-[r]-(x)
  WITH n, collect(DISTINCT coalesce(r.corpus, x.corpus)) AS owners
  WITH n, [c IN owners WHERE c <> $cid AND EXISTS { (:Corpus {cid: c}) }] AS users
  WHERE size(users) > 0
  WITH n, reduce(heir = head(users), c IN users | CASE WHEN c < heir THEN c ELSE heir END) AS heir
  SET n.corpus = heir
  WITH n, heir
  OPTIONAL MATCH (n)-[r {corpus: $cid}]-()
  SET r.corpus = heir
} IN TRANSACTIONS OF 1000 ROWS
