// One batch of sources (debates, documents, maps). $rows: [{sid, props}]; $cid: the corpus.
UNWIND $rows AS row
MERGE (s:Source {sid: row.sid})
SET s += row.props, s.corpus = coalesce(s.corpus, $cid)
