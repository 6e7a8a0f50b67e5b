// A claim's premises, pro and con
// Shows: as a table, the premises of every argument concluding the claim $claim: stance (and
//   whether the data or argkb's stance model said so), premise text, PageRank and argument key,
//   pro first, then con, then undercuts (the premises of an argument that attacks the step of
//   one of the claim's arguments; `argument` says which), then unknown; highest PageRank first
//   within a stance.
// Returns: table
// Parameters:
//   $claim (string): the claim's key, text or part of its text
// :param claim => 'We should abandon fossil fuels'
OPTIONAL MATCH (cKey:Unit:Claim {uid: $claim})
OPTIONAL CALL (cKey) {
  // the texts are searched only when no unit has the key: otherwise the UNWIND is empty
  UNWIND CASE WHEN cKey IS NULL THEN [toLower($claim)] ELSE [] END AS part
  MATCH (c:Claim) WHERE toLower(c.text) CONTAINS part
  RETURN c ORDER BY size(c.text), c.uid LIMIT 1
}
WITH coalesce(cKey, c) AS c WHERE c IS NOT NULL
CALL (c) {
  MATCH (p:Unit)-[r:PREMISE_OF]->(a:Argument)-[:CONCLUDES]->(c)
  RETURN p, r, r.stance AS stance, a.aid AS argument
  UNION ALL
  MATCH (p:Unit)-[r:PREMISE_OF]->(u:Argument)-[:UNDERCUTS]->(a:Argument)-[:CONCLUDES]->(c)
  RETURN p, r, 'undercut' AS stance, u.aid + ' undercuts ' + a.aid AS argument
}
RETURN c.text AS claim, stance, coalesce(r.stance_source, 'data') AS stance_from,
       p.text AS premise, p.pagerank AS pagerank, argument
ORDER BY CASE stance WHEN 'pro' THEN 0 WHEN 'con' THEN 1 WHEN 'undercut' THEN 2 ELSE 3 END,
         coalesce(p.pagerank, -1.0) DESC, argument
