// Every argument with its conclusion and premise units, as internal ids (one row per argument).
MATCH (a:Argument)-[:CONCLUDES]->(c:Unit)
RETURN id(a) AS id, id(c) AS conclusion, [(p:Unit)-[:PREMISE_OF]->(a) | id(p)] AS premises
