// Most relevant arguments
// Shows: arguments ranked by their relevance, an aggregate of their premises' PageRank
//   (`argkb pagerank` writes relevance_min, _avg, _max and _sum; Wachsmuth et al. 2017), with
//   conclusion, stance and premises.
// Returns: table
// Parameters:
//   $aggregate (string): 'min', 'avg', 'max' or 'sum'
//   $limit (integer, default 25): at most this many arguments
// :param aggregate => 'avg'
// :param limit => 25
MATCH (a:Argument)-[:CONCLUDES]->(c:Unit)
WITH a, c, a['relevance_' + $aggregate] AS relevance
WHERE relevance IS NOT NULL
RETURN a.aid AS argument, relevance, a.stance AS stance, c.text AS conclusion,
       [(p:Unit)-[:PREMISE_OF]->(a) | p.text] AS premises
ORDER BY relevance DESC, a.aid
LIMIT $limit
