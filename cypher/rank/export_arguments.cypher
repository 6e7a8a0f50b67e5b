// One page of arguments with internal ids in [$lo, $hi): each argument's conclusion, and every
// premise edge as (argument, premise) pairs, as flat lists in one record.
// The far ends carry no :Unit label test: CONCLUDES and PREMISE_OF only ever join units and
// arguments, and testing the label reads the node record of every conclusion and premise (a
// quarter of the server's time on the 1M-unit graph). export_graph drops any end that is not
// an exported unit, as the label test did.
UNWIND range($lo, $hi - 1) AS i
MATCH (a:Argument) WHERE id(a) = i
MATCH (a)-[:CONCLUDES]->(c)
WITH collect(id(a)) AS ids, collect(id(c)) AS conclusions, collect(a) AS arguments
CALL (arguments) {
  UNWIND arguments AS a
  MATCH (p)-[:PREMISE_OF]->(a)
  RETURN collect(id(a)) AS edge_arguments, collect(id(p)) AS edge_premises
}
RETURN ids, conclusions, edge_arguments, edge_premises
