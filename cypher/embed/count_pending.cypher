// How many units still lack an embedding.
MATCH (u:Unit)
WHERE ($all OR u.embedding IS NULL) AND coalesce(u.text, '') <> ''
RETURN count(u) AS n
