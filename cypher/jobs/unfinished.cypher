// Jobs that started writing and never finished (killed, or Neo4j lost mid-way), oldest first.
MATCH (j:Job)
RETURN j.name AS name, toString(j.started) AS started
ORDER BY j.started
