// PREMISE_OF edges by where their stance comes from: the data (pro/con as loaded; edges loaded
// before stance_source existed count here too), the stance model, or nowhere yet (unknown).
MATCH ()-[r:PREMISE_OF]->()
RETURN count(CASE WHEN r.stance_source = 'data'
                    OR (r.stance_source IS NULL AND r.stance IN ['pro', 'con']) THEN 1 END) AS data,
       count(CASE WHEN r.stance_source = 'model' THEN 1 END) AS model,
       count(CASE WHEN r.stance = 'unknown' THEN 1 END) AS unknown
