// One batch of stand-alone units (e.g. key points). $rows: [{uid, text, labels, props, source}].
// A unit created earlier without text (an id-only unit) gets its text when one arrives. The
// FROM edge names the corpus that wrote it, so that undoing that load does not count it as use.
UNWIND $rows AS row
MERGE (u:Unit {uid: row.uid})
  ON CREATE SET u.text = row.text, u.corpus = $cid
SET u.text = CASE WHEN coalesce(u.text, '') = '' THEN row.text ELSE u.text END,
    u += row.props,
    u:$(row.labels)
WITH u, row
WHERE row.source IS NOT NULL
MERGE (s:Source {sid: row.source})
  ON CREATE SET s.corpus = $cid
MERGE (u)-[f:FROM]->(s)
  ON CREATE SET f.corpus = $cid
