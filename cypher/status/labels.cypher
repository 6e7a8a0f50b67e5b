// Labels and relationship types in use (one row, even on an empty database).
RETURN COLLECT { CALL db.labels() YIELD label RETURN label } AS labels,
       COLLECT { CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType } AS types
