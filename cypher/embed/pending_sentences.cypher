// The next page of sentences without an embedding (or all sentences when $all), in id order
// (argkb sentences --embed).
MATCH (s:Sentence)
WHERE id(s) > $after AND ($all OR s.embedding IS NULL)
RETURN id(s) AS id, s.text AS text
ORDER BY id ASC
LIMIT $limit
