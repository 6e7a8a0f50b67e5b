// Paths between two claims
// Shows: the shortest chains of arguments and semantic reuse linking the unit $from to the unit
//   $to, in either direction, through PREMISE_OF, CONCLUDES, UNDERCUTS and SAME_AS (at most 10
//   steps). Each side is a key, a text or a part of a text; the shortest matching text wins. A
//   unit has no path to itself.
// Returns: graph
// Parameters:
//   $from (string): the first unit's key, text or part of its text
//   $to (string): the second unit's key, text or part of its text
// :param from => 'Carbon dioxide traps heat'
// :param to => 'We should abandon fossil fuels'
OPTIONAL MATCH (aKey:Unit {uid: $from})
OPTIONAL CALL (aKey) {
  // the texts are searched only when no unit has the key: otherwise the UNWIND is empty
  UNWIND CASE WHEN aKey IS NULL THEN [toLower($from)] ELSE [] END AS part
  MATCH (a:Unit) WHERE toLower(a.text) CONTAINS part
  RETURN a ORDER BY size(a.text), a.uid LIMIT 1
}
WITH coalesce(aKey, a) AS a WHERE a IS NOT NULL
OPTIONAL MATCH (bKey:Unit {uid: $to})
OPTIONAL CALL (bKey) {
  // the texts are searched only when no unit has the key: otherwise the UNWIND is empty
  UNWIND CASE WHEN bKey IS NULL THEN [toLower($to)] ELSE [] END AS part
  MATCH (b:Unit) WHERE toLower(b.text) CONTAINS part
  RETURN b ORDER BY size(b.text), b.uid LIMIT 1
}
WITH a, coalesce(bKey, b) AS b WHERE b IS NOT NULL AND a <> b
MATCH path = allShortestPaths((a)-[:PREMISE_OF|CONCLUDES|UNDERCUTS|SAME_AS*..10]-(b))
RETURN path
