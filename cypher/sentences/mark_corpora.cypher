// Record that argkb sentences has split the premises of corpora $cids (those complete when the
// run began: sentences/pending_corpora), so sentence-pair answers stop noting them.
UNWIND $cids AS cid
MATCH (c:Corpus {cid: cid})
SET c.split_at = datetime()
