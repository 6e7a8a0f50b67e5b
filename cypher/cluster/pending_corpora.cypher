// Complete corpora loaded (or reloaded) since the last cluster run marked them.
MATCH (c:Corpus)
WHERE c.status = 'complete' AND (c.clustered IS NULL OR c.clustered < c.finished)
RETURN collect(c.cid) AS cids
