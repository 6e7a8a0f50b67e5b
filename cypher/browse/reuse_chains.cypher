// Where a conclusion is reused as a premise
// Shows: chains of reuse starting at the unit $claim: the arguments that use it as a premise,
//   their conclusions, the arguments that use those as premises, ... for up to $depth steps
//   (1 to 3), as paths (unit)-[:PREMISE_OF]->(argument)-[:CONCLUDES]->(unit)... Argument
//   PageRank flows backwards along these chains: a unit reused by central claims is central.
// Returns: graph
// Parameters:
//   $claim (string): the unit's key, text or part of its text (a claim that is also a premise)
//   $depth (integer, default 2): how many argument steps up (1 to 3)
// :param claim => 'Burning fossil fuels drives climate change'
// :param depth => 2
OPTIONAL MATCH (uKey:Unit {uid: $claim})
OPTIONAL CALL (uKey) {
  // the texts are searched only when no unit has the key: otherwise the UNWIND is empty
  UNWIND CASE WHEN uKey IS NULL THEN [toLower($claim)] ELSE [] END AS part
  MATCH (u:Unit) WHERE toLower(u.text) CONTAINS part
  RETURN u ORDER BY NOT u:Claim, size(u.text), u.uid LIMIT 1
}
WITH coalesce(uKey, u) AS u WHERE u IS NOT NULL
MATCH path = (u)((:Unit)-[:PREMISE_OF]->(:Argument)-[:CONCLUDES]->(:Unit)){1,3}
WHERE length(path) <= 2 * $depth
RETURN path
ORDER BY length(path)
