// The cosine of the query embedding with each given premise's embedding, computed on the server
// so that no vector travels back (Neo4j reports (1 + cos) / 2; null without an embedding), and
// each premise's word count (for the "longest" representative).
UNWIND $ids AS pid
MATCH (u:Unit) WHERE id(u) = pid
RETURN pid AS id,
       CASE WHEN u.embedding IS NULL THEN null
            ELSE vector.similarity.cosine(u.embedding, $vector) END AS score,
       size([w IN split(replace(replace(replace(coalesce(u.text, ''), '\n', ' '), '\t', ' '),
                         '\r', ' '), ' ') WHERE w <> '']) AS words
