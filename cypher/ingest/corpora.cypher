// Every loaded corpus (complete or not): its id, files and status, for `argkb db drop`'s error.
MATCH (c:Corpus)
RETURN c.cid AS cid, c.files AS files, c.status AS status
ORDER BY c.cid
