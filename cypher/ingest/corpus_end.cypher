// Close a load: record its counts and mark it complete.
MATCH (c:Corpus {cid: $cid})
SET c += $counts, c.status = 'complete', c.finished = datetime()
