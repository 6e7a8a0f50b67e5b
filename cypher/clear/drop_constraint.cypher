// Drop one constraint ({{target}}: its quoted name); its index goes with it.
DROP CONSTRAINT {{target}} IF EXISTS
