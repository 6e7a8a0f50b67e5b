// BM25 baseline: Lucene full-text search over premise texts (Neo4j's default analyzer, BM25 with
// k1 = 1.2, b = 0.75). $index: the full-text index (premise_text); $query: an escaped Lucene query
// (argkb.eval.baselines.lucene_query); $limit: hits returned, best first. The collection and
// stance filters are applied by the caller to the candidate set of eval/candidates.
CALL db.index.fulltext.queryNodes($index, $query, {limit: $limit}) YIELD node, score
RETURN node.uid AS uid, score
