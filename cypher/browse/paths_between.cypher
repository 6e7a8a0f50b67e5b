// Paths between two claims
// Shows: the shortest chains of arguments and semantic reuse linking the unit $from to the unit
//   $to, in either direction, through PREMISE_OF, CONCLUDES and SAME_AS (at most 10 steps). Each
//   side is a key, a text or a part of a text; the shortest matching text wins.
// Returns: graph
// Parameters:
//   $from (string): the first unit's key, text or part of its text
//   $to (string): the second unit's key, text or part of its text
// :param from => 'Carbon dioxide traps heat'
// :param to => 'We should abandon fossil fuels'
MATCH (a:Unit)
WHERE a.uid = $from OR toLower(a.text) CONTAINS toLower($from)
WITH a ORDER BY a.uid <> $from, size(a.text), a.uid LIMIT 1
MATCH (b:Unit)
WHERE b.uid = $to OR toLower(b.text) CONTAINS toLower($to)
WITH a, b ORDER BY b.uid <> $to, size(b.text), b.uid LIMIT 1
MATCH path = allShortestPaths((a)-[:PREMISE_OF|CONCLUDES|SAME_AS*..10]-(b))
WHERE a <> b
RETURN path
