// How many of the indexes named in $names exist and are ONLINE (a route that failed asks this
// to tell "its index is being dropped or rebuilt" from any other failure).
SHOW INDEXES YIELD name, state
WHERE name IN $names AND state = 'ONLINE'
RETURN count(*) AS online
