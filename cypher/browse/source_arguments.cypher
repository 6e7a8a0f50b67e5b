// Everything from one source
// Shows: every argument from the source (debate, document, argument map) $source with its
//   conclusion (or, for an undercut, the argument it attacks) and premises, and the units that
//   hang on the source on their own (AIF statements in no argument, ArgKP key points), as a
//   graph. $source is the source key (sid, e.g. 'argsme:d1a2b3c4') or a part of its title; if
//   several match, the shortest title wins.
// Returns: graph
// Parameters:
//   $source (string): the source key, or a part of its title
// :param source => 'fossil fuels'
OPTIONAL MATCH (sKey:Source {sid: $source})
OPTIONAL CALL (sKey) {
  // the titles are searched only when no source has the key: otherwise the UNWIND is empty
  UNWIND CASE WHEN sKey IS NULL THEN [toLower($source)] ELSE [] END AS part
  MATCH (s:Source) WHERE toLower(coalesce(s.title, '')) CONTAINS part
  RETURN s ORDER BY size(coalesce(s.title, '')), s.sid LIMIT 1
}
WITH coalesce(sKey, s) AS s WHERE s IS NOT NULL
CALL (s) {
  MATCH provenance = (a:Argument)-[:FROM]->(s)
  OPTIONAL MATCH conclusion = (a)-[:CONCLUDES|UNDERCUTS]->()
  OPTIONAL MATCH premise = (:Unit)-[:PREMISE_OF]->(a)
  RETURN provenance, conclusion, premise
  UNION ALL
  MATCH provenance = (:Unit)-[:FROM]->(s)
  RETURN provenance, null AS conclusion, null AS premise
}
RETURN provenance, conclusion, premise
