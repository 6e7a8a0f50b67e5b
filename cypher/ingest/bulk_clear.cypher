// The full-text indexes dropped by bulk load $cid exist again.
MATCH (c:Corpus {cid: $cid})
REMOVE c.bulk_indexes
