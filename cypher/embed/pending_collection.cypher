// Units (premises and conclusions) of the arguments from sources whose sid starts with
// $collection that have no embedding by the model $model yet. Ids for embed/write_vectors.
MATCH (s:Source) WHERE s.sid STARTS WITH $collection
MATCH (s)<-[:FROM]-(:Argument)-[:CONCLUDES|PREMISE_OF]-(u:Unit)
WHERE u.embedding IS NULL OR coalesce(u.embedding_model, '') <> $model
WITH DISTINCT u
WHERE coalesce(u.text, '') <> ''
RETURN id(u) AS id, u.text AS text
ORDER BY id
