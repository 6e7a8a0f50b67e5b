// Candidate premises without a collection: every premise of an argument with stance $stance
// (null: any). Columns as in eval/candidates; sorted by uid.
MATCH (p:Premise)-[r:PREMISE_OF]->(:Argument)
WHERE $stance IS NULL OR r.stance = $stance
WITH DISTINCT p
RETURN p.uid AS uid,
       p.text AS text,
       CASE WHEN $vectors THEN p.embedding END AS embedding,
       CASE WHEN $vectors THEN p.embedding_model END AS model
ORDER BY uid
