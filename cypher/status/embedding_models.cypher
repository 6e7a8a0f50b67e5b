// Up to 3 embedding models other than $model that stored vectors come from (argkb update refuses
// to add vectors of its default model to a graph embedded with another).
MATCH (u:Unit)
WHERE u.embedding IS NOT NULL AND u.embedding_model <> $model
RETURN DISTINCT u.embedding_model AS model
LIMIT 3
