// Cosine of the query embedding with the given claims' embeddings, computed on the server so
// that no vector travels back (Neo4j reports (1 + cos) / 2, as the vector index does).
// One row: parallel lists id, score (cypher.read_columns).
UNWIND $ids AS cid
MATCH (u:Unit) WHERE id(u) = cid AND u.embedding IS NOT NULL
RETURN collect(cid) AS id, collect(vector.similarity.cosine(u.embedding, $vector)) AS score
