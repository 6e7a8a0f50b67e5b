// Write model stances. $rows: [{premise: uid, argument: aid, stance, p_pro}]; $model: its id.
// Only edges without a stance from the data are touched (unknown, or labelled by the model).
UNWIND $rows AS row
MATCH (:Unit {uid: row.premise})-[r:PREMISE_OF]->(:Argument {aid: row.argument})
WHERE r.stance = 'unknown' OR r.stance_source = 'model'
SET r.stance = row.stance, r.stance_source = 'model', r.stance_p_pro = row.p_pro,
    r.stance_model = $model
RETURN count(r) AS written
