// Direct premise route: the $k premises nearest to the query embedding (Neo4j reports
// (1 + cos) / 2). With a $collection (Source.sid prefix) the index is read $fetch deep and
// filtered on the server.
CALL db.index.vector.queryNodes('premise_embedding', $fetch, $vector) YIELD node, score
WHERE $collection IS NULL
   OR EXISTS { (node)-[:PREMISE_OF]->(:Argument)-[:FROM]->(s:Source)
               WHERE s.sid STARTS WITH $collection }
RETURN id(node) AS id, score
ORDER BY score DESC
LIMIT $k
