// One batch of unit embeddings, stored as float32 vectors for the vector indexes.
// $rows: [{id, vector}]; $model: the embedder's id.
UNWIND $rows AS row
MATCH (u:Unit) WHERE id(u) = row.id
CALL db.create.setNodeVectorProperty(u, 'embedding', row.vector)
SET u.embedding_model = $model
