// Mark corpora as covered by the clusters (pending_corpora.cypher then leaves them out). $cids.
UNWIND $cids AS cid
MATCH (c:Corpus {cid: cid})
SET c.clustered = datetime()
