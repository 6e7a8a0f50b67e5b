// Which of $aids another corpus (not $cid) has written already, with what that argument holds
// and whether that corpus's load completed: an id is one argument across corpora, so a second
// corpus may only repeat it unchanged.
UNWIND $aids AS aid
MATCH (a:Argument {aid: aid})
WHERE coalesce(a.corpus, '') <> $cid
OPTIONAL MATCH (owner:Corpus {cid: a.corpus})
RETURN aid, a.corpus AS corpus, owner.status AS status, a.stance AS stance,
       [(a)-[:CONCLUDES]->(c:Unit) | c.uid] AS conclusions,
       [(p:Unit)-[:PREMISE_OF]->(a) | p.uid] AS premises,
       [(a)-[:UNDERCUTS]->(t:Argument) | t.aid] AS targets,
       [(a)-[:FROM]->(s:Source) | s.sid] AS sources
