// Store the counts of a complete corpus again (ingest/corpus_counts): what a dropped corpus
// passed to it (undo_shared, undo_handover) changed them.
MATCH (c:Corpus {cid: $cid, status: 'complete'})
SET c += $counts
