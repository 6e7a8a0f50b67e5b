// Every loaded corpus, as `argkb status` lists it (`argkb db drop` takes its id); `shared`:
// the arguments of other corpora it repeated.
MATCH (c:Corpus)
RETURN c.cid AS cid, c.status AS status, c.files AS files, c.arguments AS arguments,
       c.shared AS shared
ORDER BY c.cid
