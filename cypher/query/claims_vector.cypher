// Nearest claims to the query embedding (cosine; Neo4j reports (1 + cos) / 2).
// One row: parallel lists id, score (cypher.read_columns).
CALL db.index.vector.queryNodes('claim_embedding', $k, $vector) YIELD node, score
RETURN collect(id(node)) AS id, collect(score) AS score
