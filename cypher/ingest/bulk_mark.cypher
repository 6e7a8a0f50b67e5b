// Record, before dropping them, which full-text indexes bulk load $cid drops: a load killed
// before it rebuilt them is found by the next load (ingest/bulk_pending), which rebuilds them.
MATCH (c:Corpus {cid: $cid})
SET c.bulk_indexes = $names
