// A claim with its pro and con arguments
// Shows: the claim $claim, every argument that concludes it and each argument's premises, as a
//   graph: (premise)-[:PREMISE_OF {stance}]->(argument)-[:CONCLUDES]->(claim). The stance sits on
//   PREMISE_OF ('pro', 'con' or 'unknown'). An argument attacked by an undercut (an argument
//   against the step from premises to claim) comes with it: (premise)-[:PREMISE_OF]->(undercut)
//   -[:UNDERCUTS]->(argument). $claim is a key (uid), the full text or a part of it
//   (case-insensitive); if several claims match, the shortest text wins.
// Returns: graph
// Parameters:
//   $claim (string): the claim's key, text or part of its text
// :param claim => 'We should abandon fossil fuels'
OPTIONAL MATCH (cKey:Unit:Claim {uid: $claim})
OPTIONAL CALL (cKey) {
  // the texts are searched only when no unit has the key: otherwise the UNWIND is empty
  UNWIND CASE WHEN cKey IS NULL THEN [toLower($claim)] ELSE [] END AS part
  MATCH (c:Claim) WHERE toLower(c.text) CONTAINS part
  RETURN c ORDER BY size(c.text), c.uid LIMIT 1
}
WITH coalesce(cKey, c) AS c WHERE c IS NOT NULL
MATCH conclusion = (a:Argument)-[:CONCLUDES]->(c)
CALL (a) {
  // one row per premise, then one per premise of an undercut (not every pair of the two)
  MATCH premise = (:Unit)-[:PREMISE_OF]->(a)
  RETURN premise, null AS undercut
  UNION ALL
  MATCH undercut = (:Unit)-[:PREMISE_OF]->(:Argument)-[:UNDERCUTS]->(a)
  RETURN null AS premise, undercut
}
RETURN conclusion, premise, undercut
