// Undo a failed load (or drop a corpus), step 4 (after its arguments, units and sources): the
// units and then the sources corpus $cid created that other corpora still use pass to one of
// those corpora (the smallest id), with the edges $cid wrote on them, so that dropping that
// corpus later removes them too (they stayed owned by a corpus that no longer existed). Users:
// the corpora of the nodes at their other ends (arguments, link ends, and for a source the
// units FROM it, handed over first) and of the edges they wrote.
UNWIND [true, false] AS units  // units first: a source's users include the units FROM it
CALL (units) {
  MATCH (n:Unit|Source {corpus: $cid})  // static labels, so that the corpus indexes serve
  WHERE n:Unit = units
  OPTIONAL MATCH (n)-[r]-(x)
  WHERE NOT type(r) IN ['IN_CLUSTER', 'SAME_AS'] AND NOT x:Sentence
  WITH n, [c IN collect(x.corpus) + collect(r.corpus) WHERE c <> $cid] AS users
  WHERE size(users) > 0
  WITH n, reduce(heir = head(users), c IN users | CASE WHEN c < heir THEN c ELSE heir END) AS heir
  SET n.corpus = heir
  WITH n, heir
  MATCH (n)-[r {corpus: $cid}]-()
  SET r.corpus = heir
}
