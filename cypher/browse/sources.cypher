// Sources and their size
// Shows: the sources (debates, documents, argument maps) with the most arguments (undercuts
//   included), with their title, the corpus that loaded them first, how many distinct claims
//   they argue about and how many units hang on them on their own (AIF statements in no
//   argument, ArgKP key points).
// Returns: table
// Parameters:
//   $limit (integer, default 25): at most this many sources
// :param limit => 25
MATCH (s:Source)
WITH s, COUNT { (s)<-[:FROM]-(:Argument) } AS arguments
RETURN s.sid AS sid, s.title AS title, s.corpus AS corpus, arguments,
       COUNT { MATCH (s)<-[:FROM]-(:Argument)-[:CONCLUDES]->(c:Unit) RETURN DISTINCT c } AS claims,
       COUNT { (s)<-[:FROM]-(:Unit) } AS units
ORDER BY arguments DESC, s.sid
LIMIT $limit
