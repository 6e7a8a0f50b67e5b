// Louvain communities of the projected graph $graph, written to Unit.community.
CALL gds.louvain.write($graph, {writeProperty: 'community', concurrency: $concurrency})
YIELD communityCount, modularity
RETURN communityCount AS communities, modularity
