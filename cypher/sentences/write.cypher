// One batch of split premises. $rows: [{id, uid, chars, sentences: [{position, start, text,
// words}]}]. The premise's old sentences go first (a changed text is split again); then its
// sentences, each IN the premise, and a NEXT edge from each sentence to the one after it.
// Unit.split_chars records the length of the text that was split and Unit.split_version the
// splitter's version $version (argkb.db.staleness.SPLITTER); pending.cypher compares both.
// Returns the texts of the sentences it deleted (old), for the term statistics
// (sentences/write_terms, in the same transaction).
UNWIND $rows AS row
MATCH (u:Premise) WHERE id(u) = row.id
CALL (u) {
  OPTIONAL MATCH (old:Sentence)-[:IN]->(u)
  WITH collect(old) AS olds, collect(old.text) AS old
  FOREACH (o IN olds | DETACH DELETE o)
  RETURN old
}
SET u.split_chars = row.chars, u.split_version = $version
WITH u, row, old
CALL (u, row) {
  UNWIND row.sentences AS s
  CREATE (n:Sentence {uid: row.uid + '#' + toString(s.position), text: s.text,
                      position: s.position, start: s.start, words: s.words})
  CREATE (n)-[:IN {position: s.position}]->(u)
  WITH n ORDER BY n.position
  WITH collect(n) AS ordered
  UNWIND range(0, size(ordered) - 2) AS i
  WITH ordered[i] AS a, ordered[i + 1] AS b
  CREATE (a)-[:NEXT]->(b)
}
RETURN old
