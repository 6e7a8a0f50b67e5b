// Word counts (Unit.words) for units embedded before argkb embed stored them, counted as
// query/premise_edges.cypher counts a unit without one; in batches of $batch (an implicit
// transaction: run with session.run).
MATCH (u:Unit)
WHERE u.words IS NULL AND u.embedding IS NOT NULL
CALL {
  WITH u
  SET u.words = size([w IN split(replace(replace(replace(
                  coalesce(u.text, ''), '\n', ' '), '\t', ' '), '\r', ' '), ' ') WHERE w <> ''])
} IN TRANSACTIONS OF $batch ROWS
