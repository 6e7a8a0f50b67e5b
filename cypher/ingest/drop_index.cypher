// Drop one of argkb's full-text indexes for a bulk load ({{index}}: its quoted name).
DROP INDEX {{index}} IF EXISTS
