// Stances predicted by the model
// Shows: premise edges whose stance came from `argkb stance` rather than from the data, least
//   certain first (P(pro) closest to 0.5), so a person can check them.
// Returns: table
// Parameters:
//   $limit (integer, default 25): at most this many premise edges
// :param limit => 25
MATCH (p:Unit)-[r:PREMISE_OF {stance_source: 'model'}]->(a:Argument)-[:CONCLUDES]->(c:Unit)
RETURN p.text AS premise, r.stance AS stance, r.stance_p_pro AS p_pro, r.stance_model AS model,
       c.text AS claim, a.aid AS argument
ORDER BY abs(coalesce(r.stance_p_pro, 0.5) - 0.5), a.aid, p.uid
LIMIT $limit
