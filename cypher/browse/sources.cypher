// Sources and their size
// Shows: the sources (debates, documents, argument maps) with the most arguments, with their
//   title, corpus and how many distinct claims they argue about.
// Returns: table
// Parameters:
//   $limit (integer, default 25): at most this many sources
// :param limit => 25
MATCH (s:Source)
CALL (s) {
  OPTIONAL MATCH (s)<-[:FROM]-(a:Argument)-[:CONCLUDES]->(c:Unit)
  RETURN count(DISTINCT a) AS arguments, count(DISTINCT c) AS claims
}
RETURN s.sid AS sid, s.title AS title, s.corpus AS corpus, arguments, claims
ORDER BY arguments DESC, s.sid
LIMIT $limit
