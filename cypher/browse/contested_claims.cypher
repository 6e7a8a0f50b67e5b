// Most contested claims
// Shows: claims with premises on both sides, ranked by the smaller side (a claim with 5 pro and
//   5 con premises is more contested than one with 9 pro and 1 con), then by the total.
//   Counts include stances predicted by `argkb stance`; `undercuts` counts the arguments that
//   attack the step of one of the claim's arguments (not counted as con).
// Returns: table
// Parameters:
//   $limit (integer, default 25): at most this many claims
// :param limit => 25
MATCH (c:Claim)<-[:CONCLUDES]-(:Argument)<-[r:PREMISE_OF]-(:Unit)
WITH c, count(CASE r.stance WHEN 'pro' THEN 1 END) AS pro,
     count(CASE r.stance WHEN 'con' THEN 1 END) AS con
WHERE pro > 0 AND con > 0
RETURN c.uid AS uid, c.text AS claim, pro, con,
       CASE WHEN pro < con THEN pro ELSE con END AS contested,
       COUNT { (c)<-[:CONCLUDES]-(:Argument)<-[:UNDERCUTS]-(:Argument) } AS undercuts
ORDER BY contested DESC, pro + con DESC, c.text
LIMIT $limit
