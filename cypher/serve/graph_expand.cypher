// One breadth-first step of GET /api/v1/graph: the edges at the units $ids, as drawn: premise ->
// conclusion through an argument (with the premise's stance), an undercut's premise -> the
// conclusion of the argument it attacks (`argument`: the undercut), and SAME_AS between
// paraphrases. At most $limit edges.
UNWIND $ids AS eid
MATCH (u:Unit) WHERE elementId(u) = eid
CALL (u) {
  MATCH (u)-[r:PREMISE_OF]->(a:Argument)-[:CONCLUDES]->(c:Unit)
  RETURN u AS s, c AS t, 'premise_of' AS type, r.stance AS stance, a.aid AS argument
  UNION
  MATCH (p:Unit)-[r:PREMISE_OF]->(a:Argument)-[:CONCLUDES]->(u)
  RETURN p AS s, u AS t, 'premise_of' AS type, r.stance AS stance, a.aid AS argument
  UNION
  MATCH (u)-[r:PREMISE_OF]->(x:Argument)-[:UNDERCUTS]->(:Argument)-[:CONCLUDES]->(c:Unit)
  RETURN u AS s, c AS t, 'undercuts' AS type, r.stance AS stance, x.aid AS argument
  UNION
  MATCH (p:Unit)-[r:PREMISE_OF]->(x:Argument)-[:UNDERCUTS]->(:Argument)-[:CONCLUDES]->(u)
  RETURN p AS s, u AS t, 'undercuts' AS type, r.stance AS stance, x.aid AS argument
  UNION
  MATCH (u)-[r:SAME_AS]-(:Unit)
  RETURN startNode(r) AS s, endNode(r) AS t, 'same_as' AS type, null AS stance, null AS argument
}
WITH s, t, type, stance, argument LIMIT $limit
RETURN elementId(s) AS source, elementId(t) AS target, type, stance, argument
