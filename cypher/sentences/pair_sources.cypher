// The arguments each premise in $uids is used in: the argument's id, the premise's stance
// there (PREMISE_OF.stance: pro, con or unknown) and the text of the argument's conclusion;
// `embedded`: whether the premise has an embedding (the re-ranking features read it). A premise
// of no argument gives one row with a null aid.
UNWIND $uids AS uid
MATCH (u:Unit {uid: uid})
OPTIONAL MATCH (u)-[e:PREMISE_OF]->(a:Argument)
OPTIONAL MATCH (a)-[:CONCLUDES]->(c:Unit)
RETURN uid, u.embedding IS NOT NULL AS embedded, a.aid AS aid, e.stance AS stance,
       c.text AS conclusion
ORDER BY uid, aid
