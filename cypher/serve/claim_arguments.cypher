// The arguments concluding one unit (GET /api/v1/claims/{key}/arguments), at most $limit in
// argument-key order, each with its source, its premises (stance towards the claim) and the
// undercuts that attack it, with theirs.
MATCH (c:Unit {uid: $key})
CALL (c) {
  OPTIONAL MATCH (c)<-[:CONCLUDES]-(a:Argument)
  WITH a ORDER BY a.aid LIMIT $limit
  RETURN collect({
    aid: a.aid,
    stance: a.stance,
    source: head([(a)-[:FROM]->(s:Source) | s.sid]),
    premises: [(p:Unit)-[r:PREMISE_OF]->(a)
               | {key: p.uid, text: p.text, stance: r.stance,
                  stance_source: coalesce(r.stance_source, 'data'), pagerank: p.pagerank}],
    undercuts: [(x:Argument)-[:UNDERCUTS]->(a)
                | {aid: x.aid, source: head([(x)-[:FROM]->(s:Source) | s.sid]),
                   premises: [(p:Unit)-[r:PREMISE_OF]->(x)
                              | {key: p.uid, text: p.text, stance: r.stance,
                                 stance_source: coalesce(r.stance_source, 'data'),
                                 pagerank: p.pagerank}]}]
  }) AS arguments
}
RETURN c.uid AS key, c.text AS text, COUNT { (c)<-[:CONCLUDES]-(:Argument) } AS total, arguments
