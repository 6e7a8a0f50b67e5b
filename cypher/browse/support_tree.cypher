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
MATCH (c:Claim)
WHERE c.uid = $claim OR toLower(c.text) CONTAINS toLower($claim)
WITH c ORDER BY c.uid <> $claim, size(c.text), c.uid LIMIT 1
MATCH path = ((:Unit)-[:PREMISE_OF]->(:Argument)-[:CONCLUDES]->(:Unit)){1,3}(c)
WHERE length(path) <= 2 * $depth
RETURN path
ORDER BY length(path)
