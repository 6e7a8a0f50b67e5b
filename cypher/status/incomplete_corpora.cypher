// Loads that began and did not finish (killed, or Neo4j stopped): running them again completes
// them; and drops cut off midway (status 'dropping'), which argkb db drop completes. A load that
// failed on bad input leaves no corpus node (it is undone).
MATCH (c:Corpus)
WHERE c.status <> 'complete'
RETURN c.cid AS cid, c.status AS status, c.files AS files, toString(c.started) AS started,
       coalesce(c.bulk_indexes, []) AS bulk_indexes
ORDER BY c.cid
