// BM25 (Lucene) over claim texts: the top $k claims for the query text $text (Lucene syntax
// characters already escaped by the caller).
CALL db.index.fulltext.queryNodes('claim_text', $text, {limit: $k}) YIELD node, score
RETURN id(node) AS id, score
