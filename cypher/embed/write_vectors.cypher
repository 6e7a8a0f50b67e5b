// One batch of unit embeddings, stored as float32 vectors for the vector indexes.
// $rows: [{id, vector, words}] (words: the text's word count, argkb.embed.store.word_count);
// $model: the embedder's id.
UNWIND $rows AS row
MATCH (u:Unit) WHERE id(u) = row.id
CALL db.create.setNodeVectorProperty(u, 'embedding', row.vector)
SET u.embedding_model = $model, u.words = row.words
