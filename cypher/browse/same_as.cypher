// SAME_AS neighbourhood
// Shows: semantic reuse around the unit $unit: the units joined to it by SAME_AS (a claim said in
//   other words as a premise, from `argkb cluster`), and theirs, up to two steps, with the
//   similarity score on each edge.
// Returns: graph
// Parameters:
//   $unit (string): the unit's key, text or part of its text
// :param unit => 'We should abandon fossil fuels'
MATCH (u:Unit)
WHERE u.uid = $unit OR toLower(u.text) CONTAINS toLower($unit)
WITH u ORDER BY u.uid <> $unit, size(u.text), u.uid LIMIT 1
MATCH path = (u)-[:SAME_AS]-{1,2}(:Unit)
RETURN path
ORDER BY length(path)
