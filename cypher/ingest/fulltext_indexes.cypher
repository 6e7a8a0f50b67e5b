// The full-text indexes that exist now (a bulk load drops argkb's and builds them afterwards).
SHOW FULLTEXT INDEXES YIELD name
RETURN name
