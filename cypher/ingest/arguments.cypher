// One batch of arguments. $rows: [{aid, stance, props, source, conclusion: {uid, text},
// premises: [{uid, text}]}]; $cid: the corpus. Every MERGE is keyed by a unique constraint, so a
// batch written twice (a load resumed after a crash) changes nothing.
UNWIND $rows AS row
MERGE (a:Argument {aid: row.aid})
SET a.stance = row.stance, a.corpus = $cid, a += row.props
MERGE (c:Unit {uid: row.conclusion.uid})
  ON CREATE SET c.text = row.conclusion.text, c.corpus = $cid
SET c:Claim,
    c.text = CASE WHEN coalesce(c.text, '') = '' THEN row.conclusion.text ELSE c.text END
MERGE (a)-[:CONCLUDES]->(c)
WITH a, row
CALL (a, row) {
  UNWIND row.premises AS p
  MERGE (u:Unit {uid: p.uid})
    ON CREATE SET u.text = p.text, u.corpus = $cid
  SET u:Premise,
      u.text = CASE WHEN coalesce(u.text, '') = '' THEN p.text ELSE u.text END
  MERGE (u)-[r:PREMISE_OF]->(a)
  SET r.stance = row.stance
}
WITH a, row
WHERE row.source IS NOT NULL
MERGE (s:Source {sid: row.source})
MERGE (a)-[:FROM]->(s)
