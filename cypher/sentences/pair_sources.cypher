// The arguments each premise in $uids is used in: the argument's id, the premise's stance
// there (PREMISE_OF.stance: pro, con or unknown) and the text of the argument's conclusion.
UNWIND $uids AS uid
MATCH (u:Unit {uid: uid})-[e:PREMISE_OF]->(a:Argument)
OPTIONAL MATCH (a)-[:CONCLUDES]->(c:Unit)
RETURN uid, a.aid AS aid, e.stance AS stance, c.text AS conclusion
ORDER BY uid, aid
