// The next page of sentence texts (ids ascending after $after), for a recount of the terms.
MATCH (s:Sentence)
WHERE id(s) > $after
RETURN id(s) AS id, s.text AS text
ORDER BY id ASC
LIMIT $limit
