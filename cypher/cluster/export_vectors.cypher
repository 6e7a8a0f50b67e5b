// Units of one label with their embeddings, a page at a time in id order. {{label}}: Claim|Premise.
MATCH (u:{{label}})
WHERE id(u) > $after AND u.embedding IS NOT NULL
RETURN id(u) AS id, u.embedding AS vector
ORDER BY id ASC
LIMIT $limit
