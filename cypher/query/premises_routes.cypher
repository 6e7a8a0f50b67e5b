// Both direct premise routes in one round trip: the top $bm25_k premises for $text
// (Lucene-escaped, not empty) by BM25, and the $vector_k premises nearest to the query embedding
// $vector (Neo4j reports (1 + cos) / 2). With a $collection (Source.sid prefix) each index is
// read deeper ($bm25_fetch, $vector_fetch) and filtered here. The same as premises_bm25 and
// premises_vector, which direct_hits asks one at a time when an index is missing.
// One row of parallel lists (cypher.read_columns).
CALL {
  CALL db.index.fulltext.queryNodes('premise_text', $text, {limit: $bm25_fetch}) YIELD node, score
  WHERE $collection IS NULL
     OR EXISTS { (node)-[:PREMISE_OF]->(:Argument)-[:FROM]->(s:Source)
                 WHERE s.sid STARTS WITH $collection }
  WITH node, score
  ORDER BY score DESC
  LIMIT $bm25_k
  RETURN collect(id(node)) AS bm25_id, collect(score) AS bm25_score
}
CALL {
  CALL db.index.vector.queryNodes('premise_embedding', $vector_fetch, $vector) YIELD node, score
  WHERE $collection IS NULL
     OR EXISTS { (node)-[:PREMISE_OF]->(:Argument)-[:FROM]->(s:Source)
                 WHERE s.sid STARTS WITH $collection }
  WITH node, score
  ORDER BY score DESC
  LIMIT $vector_k
  RETURN collect(id(node)) AS vector_id, collect(score) AS vector_score
}
RETURN bm25_id, bm25_score, vector_id, vector_score
