// Is the database fresh for the corpus $cid? Other corpora in it, whether any unit exists, and
// whether $cid itself was loaded (a second run over the same corpus is fine).
OPTIONAL MATCH (c:Corpus) WHERE c.cid <> $cid
WITH collect(c.cid) AS others
RETURN others,
       EXISTS { MATCH (:Unit) } AS has_units,
       EXISTS { MATCH (:Corpus {cid: $cid}) } AS loaded
