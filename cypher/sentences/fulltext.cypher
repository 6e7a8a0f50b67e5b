// Sentences by Lucene BM25 over the sentence_text index, best first, with their premise.
// $query: an escaped Lucene query (argkb.retrieve.lucene.lucene_query); $limit: hits.
CALL db.index.fulltext.queryNodes('sentence_text', $query, {limit: $limit}) YIELD node, score
MATCH (node)-[:IN]->(p:Premise)
RETURN node.uid AS uid, node.text AS text, node.position AS position, p.uid AS premise, score
ORDER BY score DESC, uid
