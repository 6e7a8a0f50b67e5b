// Each projected unit's $k nearest units by cosine of their embeddings (GDS K-Nearest Neighbors,
// NN-Descent), keeping score >= $min_score; GDS scores cosine as (1 + cos) / 2. One thread with a
// fixed seed: the same graph gives the same pairs.
CALL gds.knn.stream($graph, {
  nodeProperties: ['embedding'],
  topK: $k,
  similarityCutoff: $min_score,
  randomSeed: $seed,
  concurrency: 1
})
YIELD node1, node2, similarity
RETURN node1, node2, similarity
