// The next page of units without an embedding (or all units when $all), in id order.
MATCH (u:Unit)
WHERE id(u) > $after AND ($all OR u.embedding IS NULL) AND coalesce(u.text, '') <> ''
RETURN id(u) AS id, u.text AS text
ORDER BY id ASC
LIMIT $limit
