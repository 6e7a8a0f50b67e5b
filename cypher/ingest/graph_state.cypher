// Is the graph empty of other data (a bulk load pays off)? Units (count store) and corpora
// other than $cid.
CALL () {
  MATCH (u:Unit)
  RETURN count(u) AS units
}
CALL () {
  MATCH (c:Corpus)
  WHERE c.cid <> $cid
  RETURN count(c) AS others
}
RETURN units, others
