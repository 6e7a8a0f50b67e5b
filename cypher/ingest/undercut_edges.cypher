// Step 3 of an undercut batch: premise edges (stance con, from the data) and the attack on the
// target argument. $rows: [{aid, target, premises: [uid]}]. MERGEs keyed by unique nodes.
UNWIND $rows AS row
MATCH (a:Argument {aid: row.aid})
MATCH (t:Argument {aid: row.target})
MERGE (a)-[:UNDERCUTS]->(t)
WITH a, row
UNWIND row.premises AS uid
MATCH (p:Unit {uid: uid})
MERGE (p)-[r:PREMISE_OF]->(a)
SET r.stance = 'con', r.stance_source = 'data', r.stance_p_pro = null, r.stance_model = null
