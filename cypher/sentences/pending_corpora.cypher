// Corpora loaded since the last complete run of argkb sentences (Corpus.split_at older than the
// load, or never set): their premises may not be split yet. Read at the start of a run (the
// run marks these, sentences/mark_corpora) and by each sentence-pair answer (a note).
MATCH (c:Corpus)
WHERE c.status = 'complete' AND (c.split_at IS NULL OR c.split_at < c.finished)
RETURN collect(c.cid) AS cids
