// Every unit's internal id and its current PageRank (for a warm start). Streamed, not collected.
MATCH (u:Unit)
RETURN id(u) AS id, u.pagerank AS pagerank
