// Step 3: conclusion and premise edges. $rows: [{aid, stance, conclusion: uid, premises: [uid]}].
// Each MERGE is keyed by unique nodes, so writing a batch twice changes nothing.
// A stance from the data (pro/con) is written with stance_source 'data' and replaces anything
// there; an 'unknown' one leaves a prediction of `argkb stance` (stance_source 'model') in place,
// so loading the same data again does not undo it.
UNWIND $rows AS row
MATCH (a:Argument {aid: row.aid})
MATCH (c:Unit {uid: row.conclusion})
MERGE (a)-[:CONCLUDES]->(c)
WITH a, row
UNWIND row.premises AS uid
MATCH (p:Unit {uid: uid})
MERGE (p)-[r:PREMISE_OF]->(a)
SET r += CASE
  WHEN row.stance <> 'unknown'
    THEN {stance: row.stance, stance_source: 'data', stance_p_pro: null, stance_model: null}
  WHEN r.stance_source = 'model' THEN {}
  ELSE {stance: 'unknown', stance_source: null, stance_p_pro: null, stance_model: null}
END
