// The cosine of the query embedding with each given premise's embedding, computed on the server
// so that no vector travels back (Neo4j reports (1 + cos) / 2), and
// each premise's word count (for the "longest" representative).
// One row of equal-length lists (cypher.read_columns); a unit without an embedding
// has score -2 (outside [0, 1]).
UNWIND $ids AS pid
MATCH (u:Unit) WHERE id(u) = pid
RETURN collect(pid) AS id,
       collect(CASE WHEN u.embedding IS NULL THEN -2.0
                    ELSE vector.similarity.cosine(u.embedding, $vector) END) AS score,
       collect(size([w IN split(replace(replace(replace(coalesce(u.text, ''), '\n', ' '), '\t', ' '),
                                '\r', ' '), ' ') WHERE w <> ''])) AS words
