// The corpus node of a load, if any.
MATCH (c:Corpus {cid: $cid})
RETURN c {.*} AS corpus
