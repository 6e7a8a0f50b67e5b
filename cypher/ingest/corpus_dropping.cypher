// argkb db drop, before its first delete: the corpus is marked 'dropping' (since now), so that a
// drop cut off midway (Ctrl-C, SIGKILL, Neo4j gone) leaves a corpus that argkb status lists as
// unfinished and argkb update refuses, instead of a 'complete' corpus that is half gone.
MATCH (c:Corpus {cid: $cid})
SET c.status = 'dropping', c.started = datetime()
