// One batch of typed unit-to-unit links (e.g. MATCHES_KEY_POINT with its label).
// $rows: [{start: {uid, text}, end: {uid, text}, type, props}]. A new link names the corpus
// that wrote it (undo_units.cypher).
UNWIND $rows AS row
MERGE (a:Unit {uid: row.start.uid})
  ON CREATE SET a.text = row.start.text, a.corpus = $cid
MERGE (b:Unit {uid: row.end.uid})
  ON CREATE SET b.text = row.end.text, b.corpus = $cid
MERGE (a)-[r:$(row.type)]->(b)
  ON CREATE SET r.corpus = $cid
SET r += row.props
