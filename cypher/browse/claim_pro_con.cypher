// A claim's premises, pro and con
// Shows: as a table, the premises of every argument concluding the claim $claim: stance (and
//   whether the data or argkb's stance model said so), premise text, PageRank and argument key,
//   pro first, then con, then unknown; highest PageRank first within a stance.
// Returns: table
// Parameters:
//   $claim (string): the claim's key, text or part of its text
// :param claim => 'We should abandon fossil fuels'
MATCH (c:Claim)
WHERE c.uid = $claim OR toLower(c.text) CONTAINS toLower($claim)
WITH c ORDER BY c.uid <> $claim, size(c.text), c.uid LIMIT 1
MATCH (p:Unit)-[r:PREMISE_OF]->(a:Argument)-[:CONCLUDES]->(c)
RETURN c.text AS claim, r.stance AS stance, coalesce(r.stance_source, 'data') AS stance_from,
       p.text AS premise, p.pagerank AS pagerank, a.aid AS argument
ORDER BY CASE r.stance WHEN 'pro' THEN 0 WHEN 'con' THEN 1 ELSE 2 END,
         coalesce(p.pagerank, -1.0) DESC, a.aid
