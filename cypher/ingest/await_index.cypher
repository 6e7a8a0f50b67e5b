// Wait until index $name is online (population after a bulk load), at most $seconds.
CALL db.awaitIndex($name, $seconds)
