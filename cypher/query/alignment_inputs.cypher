// What the stance-alignment model needs of each given claim: its text and, where the claim and
// its negation have embeddings (argkb embed), the contrast cos(q, c) - cos(q, not c) with the
// query embedding $vector, computed here so that no vector travels and nothing is embedded at
// query time. Neo4j reports (1 + cos) / 2, hence the factor 2. One row of parallel lists;
// `known` is false where the contrast is missing (0.0 then). `near`: the claim's similarity to
// the query (0.0 without an embedding), which orders the claims of one cluster.
UNWIND $ids AS cid
MATCH (c:Unit) WHERE id(c) = cid
WITH cid, c, c.embedding IS NOT NULL AND c.negation_embedding IS NOT NULL
             AND c.negation_model = c.embedding_model AS known
RETURN collect(cid) AS id, collect(coalesce(c.text, '')) AS text, collect(known) AS known,
       collect(CASE WHEN known
                    THEN 2.0 * (vector.similarity.cosine(c.embedding, $vector)
                                - vector.similarity.cosine(c.negation_embedding, $vector))
                    ELSE 0.0 END) AS contrast,
       collect(coalesce(vector.similarity.cosine(c.embedding, $vector), 0.0)) AS near
