// Step 3: conclusion and premise edges. $rows: [{aid, stance, conclusion: uid, premises: [uid]}].
// Each MERGE is keyed by unique nodes, so writing a batch twice changes nothing.
UNWIND $rows AS row
MATCH (a:Argument {aid: row.aid})
MATCH (c:Unit {uid: row.conclusion})
MERGE (a)-[:CONCLUDES]->(c)
WITH a, row
UNWIND row.premises AS uid
MATCH (p:Unit {uid: uid})
MERGE (p)-[r:PREMISE_OF]->(a)
SET r.stance = row.stance
