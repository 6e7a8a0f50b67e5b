// Everything from one source
// Shows: every argument from the source (debate, document, argument map) $source with its
//   conclusion and premises, as a graph. $source is the source key (sid, e.g. 'argsme:d1a2b3c4')
//   or a part of its title; if several match, the shortest title wins.
// Returns: graph
// Parameters:
//   $source (string): the source key, or a part of its title
// :param source => 'fossil fuels'
MATCH (s:Source)
WHERE s.sid = $source OR toLower(coalesce(s.title, '')) CONTAINS toLower($source)
WITH s ORDER BY s.sid <> $source, size(coalesce(s.title, '')), s.sid LIMIT 1
MATCH provenance = (a:Argument)-[:FROM]->(s)
MATCH conclusion = (a)-[:CONCLUDES]->(:Unit)
OPTIONAL MATCH premise = (:Unit)-[:PREMISE_OF]->(a)
RETURN provenance, conclusion, premise
