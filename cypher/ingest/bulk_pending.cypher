// Loads that dropped full-text indexes and have not rebuilt them yet (killed bulk loads).
MATCH (c:Corpus)
WHERE c.bulk_indexes IS NOT NULL
RETURN c.cid AS cid, c.bulk_indexes AS names
