// SAME_AS neighbourhood
// Shows: semantic reuse around the unit $unit: the units joined to it by SAME_AS (a claim said in
//   other words as a premise, from `argkb cluster`), and theirs, up to two steps, with the
//   similarity score on each edge.
// Returns: graph
// Parameters:
//   $unit (string): the unit's key, text or part of its text
// :param unit => 'We should abandon fossil fuels'
OPTIONAL MATCH (uKey:Unit {uid: $unit})
OPTIONAL CALL (uKey) {
  // the texts are searched only when no unit has the key: otherwise the UNWIND is empty
  UNWIND CASE WHEN uKey IS NULL THEN [toLower($unit)] ELSE [] END AS part
  MATCH (u:Unit) WHERE toLower(u.text) CONTAINS part
  RETURN u ORDER BY size(u.text), u.uid LIMIT 1
}
WITH coalesce(uKey, u) AS u WHERE u IS NOT NULL
MATCH path = (u)-[:SAME_AS]-{1,2}(:Unit)
RETURN path
ORDER BY length(path)
