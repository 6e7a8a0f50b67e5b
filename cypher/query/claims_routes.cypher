// Both claim routes in one round trip: the vector index's $k nearest claims to the query
// embedding $vector, and the full-text index's top $k claims for $text (Lucene-escaped, not
// empty) with their BM25 scores and their cosine with $vector, computed here (-2.0 for a claim
// without an embedding). Neo4j reports cosines as (1 + cos) / 2. retrieve_claims falls back to
// claims_vector / claims_fulltext / claims_cosine, one route at a time, when an index is missing,
// so that the other route still answers.
// One row of parallel lists (cypher.read_columns); the subquery's aggregation gives one row
// even when the full-text index finds nothing.
CALL db.index.vector.queryNodes('claim_embedding', $k, $vector) YIELD node, score
WITH collect(id(node)) AS vector_id, collect(score) AS vector_score
CALL {
  CALL db.index.fulltext.queryNodes('claim_text', $text, {limit: $k}) YIELD node, score
  RETURN collect(id(node)) AS text_id, collect(score) AS text_score,
         collect(CASE WHEN node.embedding IS NULL THEN -2.0
                      ELSE vector.similarity.cosine(node.embedding, $vector) END) AS text_cosine
}
RETURN vector_id, vector_score, text_id, text_score, text_cosine
