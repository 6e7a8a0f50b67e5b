// BM25 (Lucene) over claim texts: the top $k claims for the query text $text (Lucene syntax
// characters already escaped by the caller).
// One row: parallel lists id, score (cypher.read_columns).
CALL db.index.fulltext.queryNodes('claim_text', $text, {limit: $k}) YIELD node, score
RETURN collect(id(node)) AS id, collect(score) AS score
