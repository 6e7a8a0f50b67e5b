// Nearest neighbours of a batch of units through a vector index. $ids: internal ids; $index:
// claim_embedding or premise_embedding; $k neighbours each, keeping cosine score >= $min_score.
UNWIND $ids AS uid
MATCH (u:Unit) WHERE id(u) = uid
CALL db.index.vector.queryNodes($index, $k, u.embedding) YIELD node, score
WITH u, node, score
WHERE node <> u AND score >= $min_score
RETURN id(u) AS a, id(node) AS b, score
