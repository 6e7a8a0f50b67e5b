// Which plugin marker functions the server knows (gds.version, apoc.version).
SHOW FUNCTIONS YIELD name
WHERE name IN ['gds.version', 'apoc.version']
RETURN collect(name) AS present
