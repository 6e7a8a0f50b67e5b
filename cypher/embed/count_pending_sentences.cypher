// How many sentences lack an embedding, and how many have one.
MATCH (s:Sentence)
RETURN count(s.embedding) AS embedded, count(s) - count(s.embedding) AS n
