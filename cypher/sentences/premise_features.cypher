// What the sentence-pair pipeline re-ranks by (argkb/sentences/pipeline.py), for the premises
// $uids (Unit.uid) of the first stage's sentences, computed on the server so that no vector
// travels: `topic`, the similarity of the premise's embedding with the query's $vector;
// `prior`, its similarity with the argumentativeness direction $argument
// (argkb/retrieve/argument_prior.py); `claim`, the best similarity of the query with a
// conclusion the premise serves; `words`, its word count. Neo4j reports similarities as
// (1 + cos) / 2; -2 where an embedding is missing.
UNWIND $uids AS uid
MATCH (p:Unit {uid: uid})
OPTIONAL MATCH (p)-[:PREMISE_OF]->(:Argument)-[:CONCLUDES]->(c:Unit)
  WHERE c <> p AND c.embedding IS NOT NULL
WITH p, max(vector.similarity.cosine(c.embedding, $vector)) AS claim
RETURN p.uid AS uid,
       CASE WHEN p.embedding IS NULL THEN -2.0
            ELSE vector.similarity.cosine(p.embedding, $vector) END AS topic,
       CASE WHEN p.embedding IS NULL THEN -2.0
            ELSE vector.similarity.cosine(p.embedding, $argument) END AS prior,
       coalesce(claim, -2.0) AS claim,
       coalesce(p.words, size(split(trim(coalesce(p.text, '')), ' '))) AS words
