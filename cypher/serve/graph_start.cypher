// The node a neighbourhood (GET /api/v1/graph) starts from.
MATCH (u:Unit {uid: $key})
RETURN elementId(u) AS id
