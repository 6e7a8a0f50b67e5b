// Close a load: record its counts and mark it complete (a bulk load's indexes exist again).
MATCH (c:Corpus {cid: $cid})
SET c += $counts, c.status = 'complete', c.finished = datetime()
REMOVE c.bulk_indexes
