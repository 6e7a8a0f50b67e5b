// Most central units of a topic by PageRank
// Shows: the units of a topic, highest argument PageRank (`argkb pagerank`) first. A unit
//   belongs to the topic $topic when its text contains it, or when it is part of an argument
//   from a source (debate) whose title or discussion contains it, or hangs on such a source on
//   its own (an ArgKP key point, an AIF statement in no argument); case-insensitive.
// Returns: table
// Parameters:
//   $topic (string): a word or phrase naming the topic
//   $limit (integer, default 10): at most this many units
// :param topic => 'fossil fuels'
// :param limit => 10
CALL () {
  MATCH (u:Unit) WHERE toLower(u.text) CONTAINS toLower($topic)
  RETURN u
  UNION
  MATCH (s:Source)
  WHERE toLower(coalesce(s.title, '')) CONTAINS toLower($topic)
     OR toLower(coalesce(s.discussion, '')) CONTAINS toLower($topic)
  CALL (s) {
    MATCH (s)<-[:FROM]-(:Argument)-[:CONCLUDES]->(u:Unit) RETURN u
    UNION
    MATCH (s)<-[:FROM]-(:Argument)<-[:PREMISE_OF]-(u:Unit) RETURN u
    UNION
    MATCH (s)<-[:FROM]-(u:Unit) RETURN u
  }
  RETURN u
}
RETURN u.uid AS uid, u.text AS text, u.pagerank AS pagerank, u:Claim AS claim,
       u:Premise AS premise
ORDER BY coalesce(u.pagerank, -1.0) DESC, u.uid
LIMIT $limit
