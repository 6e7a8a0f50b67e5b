// GDS PageRank of the projected graph $graph, written to Unit.gds_pagerank ($damping as argkb's
// alpha; converged to $tolerance).
CALL gds.pageRank.write($graph, {
  writeProperty: 'gds_pagerank', dampingFactor: $damping, maxIterations: 200,
  tolerance: $tolerance, concurrency: $concurrency
})
YIELD ranIterations, didConverge
RETURN ranIterations AS iterations, didConverge AS converged
