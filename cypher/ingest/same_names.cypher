// Other corpora of this format loaded from files of the same names (an earlier version of the
// input, usually), each with the arguments it holds (its own, or repeated: SHARES) that corpus
// $cid does not: they stay beside $cid's. $cid, $fmt, $names.
MATCH (c:Corpus {format: $fmt, name: $names})
WHERE c.cid <> $cid
CALL (c) {
  CALL (c) {
    MATCH (a:Argument {corpus: c.cid})
    RETURN a
    UNION
    MATCH (c)-[:SHARES]->(a:Argument)
    RETURN a
  }
  WITH a
  WHERE a.corpus <> $cid AND NOT EXISTS { (:Corpus {cid: $cid})-[:SHARES]->(a) }
  RETURN count(a) AS arguments
}
RETURN c.cid AS cid, arguments
ORDER BY cid
