// How many claims with an embedding still lack the embedding of their negation
// (or have one from another model).
MATCH (c:Claim)
WHERE c.embedding IS NOT NULL AND ($all OR c.negation_embedding IS NULL
       OR coalesce(c.negation_model, '') <> coalesce(c.embedding_model, ''))
  AND coalesce(c.text, '') <> ''
RETURN count(c) AS n
