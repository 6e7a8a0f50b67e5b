// One batch of semantic-reuse edges. $rows: [{a, b, score}] with internal ids; $method.
UNWIND $rows AS row
MATCH (a:Unit) WHERE id(a) = row.a
MATCH (b:Unit) WHERE id(b) = row.b
MERGE (a)-[r:SAME_AS]->(b)
SET r.score = row.score, r.method = $method
