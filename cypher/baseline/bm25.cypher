// BM25 baseline: Lucene full-text search over premise texts (the English analyzer of
// cypher/schema.cypher, BM25 with k1 = 1.2, b = 0.75). $index: the full-text index
// (premise_text); $query: an escaped Lucene query
// (argkb.eval.baselines.lucene_query); $limit: hits returned, best first, equal scores by uid (the
// index returns them in an order that depends on the store's history: ArgKP dev's BM25 read .4684,
// .4781 or .4814 on one commit). The collection and stance filters are applied by the caller to
// the candidate set of eval/candidates.
CALL db.index.fulltext.queryNodes($index, $query, {limit: $limit}) YIELD node, score
RETURN node.uid AS uid, score
ORDER BY score DESC, uid
