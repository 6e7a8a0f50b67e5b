// A claim with its pro and con arguments
// Shows: the claim $claim, every argument that concludes it and each argument's premises, as a
//   graph: (premise)-[:PREMISE_OF {stance}]->(argument)-[:CONCLUDES]->(claim). The stance sits on
//   PREMISE_OF ('pro', 'con' or 'unknown'). $claim is a key (uid), the full text or a part of it
//   (case-insensitive); if several claims match, the shortest text wins.
// Returns: graph
// Parameters:
//   $claim (string): the claim's key, text or part of its text
// :param claim => 'We should abandon fossil fuels'
MATCH (c:Claim)
WHERE c.uid = $claim OR toLower(c.text) CONTAINS toLower($claim)
WITH c ORDER BY c.uid <> $claim, size(c.text), c.uid LIMIT 1
MATCH conclusion = (a:Argument)-[:CONCLUDES]->(c)
MATCH premise = (:Unit)-[:PREMISE_OF]->(a)
RETURN conclusion, premise
