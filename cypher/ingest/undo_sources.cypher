// Undo a failed load, step 3 (after its arguments and units): the sources corpus $cid created
// that nothing points to any more. Needs an auto-commit session.
MATCH (s:Source {corpus: $cid})
WHERE NOT EXISTS { (s)--() }
CALL (s) {
  DELETE s
} IN TRANSACTIONS OF 5000 ROWS
