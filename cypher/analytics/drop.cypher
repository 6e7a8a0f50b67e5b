// Drop the projected graph $graph (if it still exists).
CALL gds.graph.drop($graph, false) YIELD graphName
RETURN graphName
