// What one corpus holds: its arguments (undercuts among them) and their reuse edges, the units
// and sources it touches (through its arguments, or loaded on their own), and the arguments of
// other corpora it repeated (SHARES). Shared units count for every corpus using them.
CALL () {
  MATCH (a:Argument {corpus: $cid})
  RETURN count(a) AS arguments, sum(COUNT { (a)-[:REUSES]->() }) AS reuse_edges,
         sum(COUNT { (a)-[:UNDERCUTS]->() }) AS undercuts
}
CALL () {
  CALL () {
    MATCH (:Argument {corpus: $cid})-[:CONCLUDES|PREMISE_OF]-(u:Unit)
    RETURN u
    UNION
    MATCH (u:Unit {corpus: $cid})
    RETURN u
  }
  RETURN count(u) AS units
}
CALL () {
  CALL () {
    MATCH (:Argument {corpus: $cid})-[:FROM]->(s:Source)
    RETURN s
    UNION
    MATCH (s:Source {corpus: $cid})
    RETURN s
  }
  RETURN count(s) AS sources
}
RETURN arguments, undercuts, units, sources, reuse_edges,
       COUNT { (:Corpus {cid: $cid})-[:SHARES]->() } AS shared
