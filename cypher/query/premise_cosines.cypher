// The cosine of the query embedding with each candidate premise's embedding, computed on the
// server so that no vector travels back (Neo4j reports (1 + cos) / 2), and each premise's word
// count (for the "longest" representative): the one argkb embed stored, else counted here.
// The candidates are those of premise_edges (the premises of the claims $claims and the premises
// $ids), found here again so that both queries run at the same time; without premise_edges'
// source filter, so a few extra rows may come back.
// One row of equal-length lists (cypher.read_columns); a unit without an embedding
// has score -2 (outside [0, 1]).
CALL {
  UNWIND $claims AS cid
  MATCH (c:Unit)<-[:CONCLUDES]-(:Argument)<-[:PREMISE_OF]-(p:Unit)
  WHERE id(c) = cid
  RETURN collect(id(p)) AS claimed
}
UNWIND claimed + $ids AS pid
WITH DISTINCT pid
MATCH (u:Unit) WHERE id(u) = pid
RETURN collect(pid) AS id,
       collect(CASE WHEN u.embedding IS NULL THEN -2.0
                    ELSE vector.similarity.cosine(u.embedding, $vector) END) AS score,
       collect(coalesce(u.words, size([w IN split(replace(replace(replace(
                  coalesce(u.text, ''), '\n', ' '), '\t', ' '), '\r', ' '), ' ') WHERE w <> '']))) AS words
