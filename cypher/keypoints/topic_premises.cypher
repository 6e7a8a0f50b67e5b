// The premises of every argument that concludes a unit whose text is the topic's, word for word
// ($words: the topic cut at spaces, tabs and line breaks, lower-cased here as the conclusions
// are; case and runs of those four characters are ignored), with the premise's stance towards
// it, the argument and the argument's source (its id, title and web address; '' where there is
// none).
// One row of equal-length lists, an edge per position (cypher.read_columns).
MATCH (c:Unit)<-[:CONCLUDES]-(a:Argument)<-[r:PREMISE_OF]-(p:Unit)
WHERE [w IN split(replace(replace(replace(toLower(c.text), '\t', ' '), '\n', ' '), '\r', ' '), ' ')
       WHERE w <> ''] = [w IN $words | toLower(w)]
  AND p <> c AND p.text IS NOT NULL
OPTIONAL MATCH (a)-[:FROM]->(s:Source)
RETURN collect(p.uid) AS premise, collect(p.text) AS text,
       collect(coalesce(r.stance, 'unknown')) AS stance, collect(a.aid) AS argument,
       collect(coalesce(s.sid, '')) AS source, collect(coalesce(s.title, '')) AS title,
       collect(coalesce(s.url, '')) AS url
