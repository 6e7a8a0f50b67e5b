// The premises of every argument that concludes a unit whose text is $topic (case and surrounding
// space ignored), with the premise's stance towards it, the argument and the argument's source.
// One row of equal-length lists, an edge per position (cypher.read_columns).
MATCH (c:Unit)<-[:CONCLUDES]-(a:Argument)<-[r:PREMISE_OF]-(p:Unit)
WHERE toLower(trim(c.text)) = toLower(trim($topic)) AND p <> c AND p.text IS NOT NULL
OPTIONAL MATCH (a)-[:FROM]->(s:Source)
RETURN collect(p.uid) AS premise, collect(p.text) AS text,
       collect(coalesce(r.stance, 'unknown')) AS stance, collect(a.aid) AS argument,
       collect(coalesce(s.sid, '')) AS source
