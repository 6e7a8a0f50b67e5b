// The sentences of a premise
// Shows: the sentences `argkb sentences` split the premise $unit into, in order, as a graph:
//   (sentence)-[:IN {position}]->(premise) for each, and (sentence)-[:NEXT]->(sentence) to the
//   one after it. Nothing before `argkb sentences` ran. $unit is a key (uid), the full text or a
//   part of it (case-insensitive); if several split premises match, the shortest text wins.
// Returns: graph
// Parameters:
//   $unit (string): the premise's key, text or part of its text
// :param unit => 'Every year we wait makes the problem harder to solve'
OPTIONAL MATCH (uKey:Unit:Premise {uid: $unit})
OPTIONAL CALL (uKey) {
  // the texts are searched only when no unit has the key: otherwise the UNWIND is empty
  UNWIND CASE WHEN uKey IS NULL THEN [toLower($unit)] ELSE [] END AS part
  MATCH (u:Premise) WHERE toLower(u.text) CONTAINS part AND EXISTS { (u)<-[:IN]-(:Sentence) }
  RETURN u ORDER BY size(u.text), u.uid LIMIT 1
}
WITH coalesce(uKey, u) AS u WHERE u IS NOT NULL
MATCH sentence = (s:Sentence)-[:IN]->(u)
OPTIONAL MATCH next = (s)-[:NEXT]->(:Sentence)
RETURN sentence, next
ORDER BY s.position
