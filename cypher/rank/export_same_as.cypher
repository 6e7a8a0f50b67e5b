// Semantic reuse: pairs of units that mean the same (for --reuse semantic).
MATCH (u:Unit)-[:SAME_AS]->(v:Unit)
RETURN id(u) AS a, id(v) AS b
