// Delete every node with its relationships, in batches of $batch rows (an implicit transaction:
// run with session.run, not execute_query).
MATCH (n)
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF $batch ROWS
