// One page of arguments with internal ids in [$lo, $hi): each argument's conclusion, and every
// premise edge as (argument, premise) pairs, as flat lists in one record.
UNWIND range($lo, $hi - 1) AS i
MATCH (a:Argument) WHERE id(a) = i
MATCH (a)-[:CONCLUDES]->(c:Unit)
WITH collect(id(a)) AS ids, collect(id(c)) AS conclusions, collect(a) AS arguments
CALL (arguments) {
  UNWIND arguments AS a
  MATCH (p:Unit)-[:PREMISE_OF]->(a)
  RETURN collect(id(a)) AS edge_arguments, collect(id(p)) AS edge_premises
}
RETURN ids, conclusions, edge_arguments, edge_premises
