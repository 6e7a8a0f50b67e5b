// Undo a failed load (or drop a corpus), step 1: the arguments of corpus $cid that other
// corpora repeated (SHARES, arg_shared.cypher) pass to one of them, the smallest id, instead of
// going; its SHARES edge goes, as it now owns them. Their units and sources then stay, used by
// an argument of that corpus, and pass to it (undo_handover.cypher). Needs an auto-commit
// session (batches). Returns the heirs, whose counts change (argkb.ingest.undo_load recounts).
MATCH (a:Argument {corpus: $cid})<-[:SHARES]-(:Corpus)
WITH DISTINCT a
CALL (a) {
  MATCH (a)<-[:SHARES]-(user:Corpus)
  WITH a, min(user.cid) AS heir
  MATCH (a)<-[s:SHARES]-(:Corpus {cid: heir})
  DELETE s
  SET a.corpus = heir
  RETURN heir
} IN TRANSACTIONS OF 1000 ROWS
RETURN DISTINCT heir
