// One batch of sentence embeddings, stored as float32 vectors for the sentence_embedding index.
// $rows: [{id, vector, words}] (words unused: sentences are short); $model: the embedder's id.
UNWIND $rows AS row
MATCH (s:Sentence) WHERE id(s) = row.id
CALL db.create.setNodeVectorProperty(s, 'embedding', row.vector)
SET s.embedding_model = $model
