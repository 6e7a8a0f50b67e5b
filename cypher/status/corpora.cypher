// Every loaded corpus, as `argkb status` lists it (`argkb db drop` takes its id).
MATCH (c:Corpus)
RETURN c.cid AS cid, c.status AS status, c.files AS files, c.arguments AS arguments
ORDER BY c.cid
