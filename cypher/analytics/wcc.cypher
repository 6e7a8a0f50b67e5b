// Weakly connected components of the projected graph $graph, written to Unit.component.
CALL gds.wcc.write($graph, {writeProperty: 'component', concurrency: $concurrency})
YIELD componentCount
RETURN componentCount AS components
