// Bridging units
// Shows: units with the highest betweenness written by `argkb analytics`: they lie on many of the
//   shortest paths between other units of the argument graph, so they join lines of debate
//   (e.g. a claim reused in two topics). Empty until `argkb analytics` has run.
// Returns: table
// Parameters:
//   $limit (integer, default 10): at most this many units
// :param limit => 10
MATCH (u:Unit) WHERE u.betweenness IS NOT NULL
RETURN u.uid AS uid, u.text AS text, u.betweenness AS betweenness, u.pagerank AS pagerank,
       u.community AS community
ORDER BY u.betweenness DESC, u.uid
LIMIT $limit
