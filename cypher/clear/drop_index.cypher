// Drop one index ({{target}}: its quoted name).
DROP INDEX {{target}} IF EXISTS
