// Nearest neighbours of a batch of new units through a vector index, with each neighbour's
// cluster of $kind (null when it has none yet). $ids: internal ids; $index: claim_embedding or
// premise_embedding; $k neighbours each, keeping cosine score >= $min_score.
UNWIND $ids AS uid
MATCH (u:Unit) WHERE id(u) = uid
CALL db.index.vector.queryNodes($index, $k, u.embedding) YIELD node, score
WITH u, node, score
WHERE node <> u AND score >= $min_score
OPTIONAL MATCH (node)-[:IN_CLUSTER]->(c:Cluster {kind: $kind})
RETURN id(u) AS a, id(node) AS b, score, c.cid AS cid
