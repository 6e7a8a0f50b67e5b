// Find units by text
// Shows: the units (claims and premises) whose text contains $text (case-insensitive), highest
//   PageRank first, with how many arguments conclude each and how many use it as a premise.
//   Use it to find the exact text or key (uid) that the other queries take.
// Returns: table
// Parameters:
//   $text (string): a word or phrase of the unit's text
//   $limit (integer, default 25): at most this many units
// :param text => 'climate'
// :param limit => 25
MATCH (u:Unit)
WHERE toLower(u.text) CONTAINS toLower($text)
RETURN u.uid AS uid, u.text AS text, u:Claim AS claim, u:Premise AS premise,
       u.pagerank AS pagerank,
       COUNT { (u)<-[:CONCLUDES]-(:Argument) } AS concluded_by,
       COUNT { (u)-[:PREMISE_OF]->(:Argument) } AS premise_of
ORDER BY coalesce(u.pagerank, -1.0) DESC, u.uid
LIMIT $limit
