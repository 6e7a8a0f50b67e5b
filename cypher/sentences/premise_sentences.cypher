// Every sentence of the premises $uids (Unit.uid) with its stored embedding (null where
// `argkb sentences --embed` has not run), for pairing a top sentence with another sentence of
// its premise by cosine or by the next-sentence model (argkb/sentences/pipeline.py).
UNWIND $uids AS uid
MATCH (s:Sentence)-[:IN]->(:Unit {uid: uid})
RETURN uid AS premise, s.uid AS uid, s.text AS text, s.position AS position,
       s.embedding AS embedding
ORDER BY premise, position
