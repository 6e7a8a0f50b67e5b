// One batch of sources (debates, documents, maps). $rows: [{sid, props}]; $cid: the corpus.
// Only the corpus that created a source sets its properties: a later corpus naming the same
// source (the same map id, debate id) changes nothing of it, so undoing or dropping that corpus
// leaves it as it was.
UNWIND $rows AS row
MERGE (s:Source {sid: row.sid})
  ON CREATE SET s.corpus = $cid
WITH s, row
WHERE s.corpus = $cid OR s.corpus IS NULL
SET s += row.props, s.corpus = $cid
