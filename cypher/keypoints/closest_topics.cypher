// The conclusions closest in words to a topic that has no argument: BM25 (Lucene) over claim
// texts for $text (Lucene syntax characters escaped by the caller), keeping claims that some
// argument concludes, best first, at most $k distinct texts.
// One row: the list of texts (cypher.read_columns).
CALL db.index.fulltext.queryNodes('claim_text', $text, {limit: 50}) YIELD node, score
WHERE EXISTS { (node)<-[:CONCLUDES]-(:Argument) }
WITH node.text AS text, max(score) AS score
ORDER BY score DESC, text
LIMIT $k
RETURN collect(text) AS text
