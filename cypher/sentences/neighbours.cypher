// The previous and next sentence (NEXT edges) of each sentence in $uids.
UNWIND $uids AS uid
MATCH (s:Sentence {uid: uid})
OPTIONAL MATCH (p:Sentence)-[:NEXT]->(s)
OPTIONAL MATCH (s)-[:NEXT]->(n:Sentence)
RETURN uid, p.uid AS prev_uid, p.text AS prev_text, p.position AS prev_position,
       n.uid AS next_uid, n.text AS next_text, n.position AS next_position
