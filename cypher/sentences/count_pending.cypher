// How many premises pending.cypher would return from the start.
MATCH (u:Premise)
WHERE coalesce(u.text, '') <> ''
  AND ($all OR u.split_chars IS NULL OR u.split_chars <> size(u.text)
       OR coalesce(u.split_version, 1) <> $version
       OR EXISTS {
         MATCH (s:Sentence)-[:IN]->(u)
         WHERE substring(u.text, s.start, size(s.text)) <> s.text
       })
RETURN count(u) AS n
