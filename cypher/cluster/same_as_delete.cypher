// Remove SAME_AS edges made by one method before writing new ones.
MATCH ()-[r:SAME_AS {method: $method}]->()
CALL (r) { DELETE r } IN TRANSACTIONS OF 10000 ROWS
