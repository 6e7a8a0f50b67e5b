// Text, key, PageRank and (if $vectors) the embedding of the given units.
UNWIND $ids AS uid
MATCH (u:Unit) WHERE id(u) = uid
RETURN uid AS id, u.uid AS key, u.text AS text, u.pagerank AS pagerank,
       CASE WHEN $vectors THEN u.embedding ELSE null END AS embedding
