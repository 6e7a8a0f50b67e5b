// Betweenness centrality of the units in the projected graph $graph, written to
// Unit.betweenness (exact: every node is a source; undirected paths).
CALL gds.betweenness.write($graph, {writeProperty: 'betweenness', concurrency: $concurrency})
YIELD centralityDistribution
RETURN centralityDistribution.max AS max
