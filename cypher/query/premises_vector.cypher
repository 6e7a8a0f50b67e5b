// Direct premise route: the $k premises nearest to the query embedding (Neo4j reports
// (1 + cos) / 2). With a $collection (Source.sid prefix) the index is read $fetch deep and
// filtered on the server.
// One row: parallel lists id, score (cypher.read_columns).
CALL db.index.vector.queryNodes('premise_embedding', $fetch, $vector) YIELD node, score
WHERE $collection IS NULL
   OR EXISTS { (node)-[:PREMISE_OF]->(:Argument)-[:FROM]->(s:Source)
               WHERE s.sid STARTS WITH $collection }
WITH node, score
ORDER BY score DESC
LIMIT $k
RETURN collect(id(node)) AS id, collect(score) AS score
