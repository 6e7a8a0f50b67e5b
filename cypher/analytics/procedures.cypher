// Which of the GDS procedures `argkb analytics` calls the server has. $needed: their names.
SHOW PROCEDURES YIELD name
WHERE name IN $needed
RETURN collect(name) AS found
