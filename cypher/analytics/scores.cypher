// argkb's PageRank and GDS PageRank of every unit that has both, for their rank correlation.
MATCH (u:Unit)
WHERE u.pagerank IS NOT NULL AND u.gds_pagerank IS NOT NULL
RETURN u.pagerank AS argkb, u.gds_pagerank AS gds
ORDER BY u.uid
