// Every sentence of the premises $uids (Unit.uid), for pairing a top sentence with the most
// similar sentence of its premise (argkb/sentences/pipeline.py).
UNWIND $uids AS uid
MATCH (s:Sentence)-[:IN]->(:Unit {uid: uid})
RETURN uid AS premise, s.uid AS uid, s.text AS text, s.position AS position
ORDER BY premise, position
