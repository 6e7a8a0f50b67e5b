// One batch of embeddings of claims' negations (float32, as Unit.embedding).
// $rows: [{id, vector}]; $model: the embedder's id.
UNWIND $rows AS row
MATCH (c:Unit) WHERE id(c) = row.id
CALL db.create.setNodeVectorProperty(c, 'negation_embedding', row.vector)
SET c.negation_model = $model
