// The sentence-pair pipeline's sentence features (argkb/sentences/pipeline.py) for the
// sentences $uids, computed on the server: the similarity of each sentence's embedding (argkb
// sentences --embed) with the query's $vector and with the argumentativeness direction
// $argument, as (1 + cos) / 2; -2 for a sentence without an embedding.
UNWIND $uids AS uid
MATCH (s:Sentence {uid: uid})
RETURN uid,
       CASE WHEN s.embedding IS NULL THEN -2.0
            ELSE vector.similarity.cosine(s.embedding, $vector) END AS topic,
       CASE WHEN s.embedding IS NULL THEN -2.0
            ELSE vector.similarity.cosine(s.embedding, $argument) END AS prior,
       size(split(trim(s.text), ' ')) AS words
