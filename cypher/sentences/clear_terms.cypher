// Delete the term statistics before a recount (an implicit transaction: run with session.run).
MATCH (x:SentenceTerm|SentenceStats)
CALL (x) { DELETE x } IN TRANSACTIONS OF 10000 ROWS
