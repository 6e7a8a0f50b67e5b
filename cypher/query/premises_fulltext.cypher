// BM25-only retrieval: the top $k premises for $text (Lucene-escaped) with their texts.
CALL db.index.fulltext.queryNodes('premise_text', $text, {limit: $k}) YIELD node, score
RETURN node.uid AS key, node.text AS text, score
