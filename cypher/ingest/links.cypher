// One batch of typed unit-to-unit links (e.g. MATCHES_KEY_POINT with its label).
// $rows: [{start: {uid, text}, end: {uid, text}, type, props}]. A new link names the corpus
// that wrote it (undo_units.cypher); a link another corpus drew keeps its properties, so that
// undoing or dropping this corpus leaves it as it was.
UNWIND $rows AS row
MERGE (a:Unit {uid: row.start.uid})
  ON CREATE SET a.text = row.start.text, a.corpus = $cid
MERGE (b:Unit {uid: row.end.uid})
  ON CREATE SET b.text = row.end.text, b.corpus = $cid
MERGE (a)-[r:$(row.type)]->(b)
  ON CREATE SET r.corpus = $cid
WITH r, row
WHERE r.corpus = $cid OR r.corpus IS NULL  // only the corpus that drew a link sets its label
SET r += row.props, r.corpus = $cid
