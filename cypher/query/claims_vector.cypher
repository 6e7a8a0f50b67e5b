// Nearest claims to the query embedding (cosine; Neo4j reports (1 + cos) / 2).
CALL db.index.vector.queryNodes('claim_embedding', $k, $vector) YIELD node, score
RETURN id(node) AS id, score
