// One batch of typed unit-to-unit links (e.g. MATCHES_KEY_POINT with its label).
// $rows: [{start: {uid, text}, end: {uid, text}, type, props}].
UNWIND $rows AS row
MERGE (a:Unit {uid: row.start.uid})
  ON CREATE SET a.text = row.start.text, a.corpus = $cid
MERGE (b:Unit {uid: row.end.uid})
  ON CREATE SET b.text = row.end.text, b.corpus = $cid
MERGE (a)-[r:$(row.type)]->(b)
SET r += row.props
