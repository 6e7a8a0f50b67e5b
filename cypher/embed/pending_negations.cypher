// The next page of claims whose negation has no embedding yet (every claim with an embedding
// when $all), in id order. The stance-alignment model compares the query with a claim and with
// the claim's negation (argkb.stance.alignment); embedding the negations here, once, spares
// every query that work.
MATCH (c:Claim)
WHERE id(c) > $after AND c.embedding IS NOT NULL
  AND ($all OR c.negation_embedding IS NULL
       OR coalesce(c.negation_model, '') <> coalesce(c.embedding_model, '')) AND coalesce(c.text, '') <> ''
RETURN id(c) AS id, c.text AS text
ORDER BY id ASC
LIMIT $limit
