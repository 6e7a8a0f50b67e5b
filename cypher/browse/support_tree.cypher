// What supports a claim, down to depth 3
// Shows: the premises of the claim $claim, the premises of those premises when they are
//   conclusions themselves, and so on for up to $depth steps (1 to 3), as paths
//   (premise)-[:PREMISE_OF]->(argument)-[:CONCLUDES]->(unit)... ending at the claim.
// Returns: graph
// Parameters:
//   $claim (string): the claim's key, text or part of its text
//   $depth (integer, default 2): how many argument steps down (1 to 3)
// :param claim => 'We should abandon fossil fuels'
// :param depth => 2
OPTIONAL MATCH (cKey:Unit:Claim {uid: $claim})
OPTIONAL CALL (cKey) {
  // the texts are searched only when no unit has the key: otherwise the UNWIND is empty
  UNWIND CASE WHEN cKey IS NULL THEN [toLower($claim)] ELSE [] END AS part
  MATCH (c:Claim) WHERE toLower(c.text) CONTAINS part
  RETURN c ORDER BY size(c.text), c.uid LIMIT 1
}
WITH coalesce(cKey, c) AS c WHERE c IS NOT NULL
MATCH path = ((:Unit)-[:PREMISE_OF]->(:Argument)-[:CONCLUDES]->(:Unit)){1,3}(c)
WHERE length(path) <= 2 * $depth
RETURN path
ORDER BY length(path)
