"""Neo4j access: connection resolution, Cypher files, schema, and the managed local server."""
