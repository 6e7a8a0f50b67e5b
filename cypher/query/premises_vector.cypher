// Nearest premises to the query embedding, with their stance towards their own claims.
CALL db.index.vector.queryNodes('premise_embedding', $k, $vector) YIELD node, score
RETURN id(node) AS id, score
