// Candidate premises of a collection: premises of arguments -[:FROM]-> a source whose sid starts
// with $collection, with stance $stance (null: any). With $vectors, also the stored embedding and
// the id of the model that made it. Sorted by uid so that seeded shuffles are reproducible.
// Starts from the sources: the prefix search uses the uniqueness index on Source.sid.
MATCH (s:Source) WHERE s.sid STARTS WITH $collection
MATCH (s)<-[:FROM]-(:Argument)<-[r:PREMISE_OF]-(p:Premise)
WHERE $stance IS NULL OR r.stance = $stance
WITH DISTINCT p
RETURN p.uid AS uid,
       p.text AS text,
       CASE WHEN $vectors THEN p.embedding END AS embedding,
       CASE WHEN $vectors THEN p.embedding_model END AS model
ORDER BY uid
