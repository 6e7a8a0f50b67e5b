// Every index with its state; LOOKUP indexes are Neo4j's own token indexes.
SHOW INDEXES YIELD name, type, entityType, labelsOrTypes, properties, state, populationPercent, options
RETURN name, type, entityType, labelsOrTypes, properties, state, populationPercent,
       options.indexConfig AS config
ORDER BY name
