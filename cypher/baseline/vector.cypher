// Cosine baseline without a collection: approximate nearest premises from the vector index
// ($index: premise_embedding), then the stance filter; $fetch neighbours read, $k returned.
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node, score
WHERE $stance IS NULL OR EXISTS { MATCH (node)-[r:PREMISE_OF]->() WHERE r.stance = $stance }
RETURN node.uid AS uid, score
LIMIT $k
