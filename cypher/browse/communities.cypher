// Communities of the argument graph
// Shows: the Louvain communities written by `argkb analytics` (units that argue with each other
//   more than with the rest), largest first, with their weakly connected component and their
//   highest-PageRank units. Empty until `argkb analytics` has run.
// Returns: table
// Parameters:
//   $limit (integer, default 25): at most this many communities
// :param limit => 25
MATCH (u:Unit) WHERE u.community IS NOT NULL
WITH u.community AS community, u ORDER BY coalesce(u.pagerank, -1.0) DESC, u.uid
WITH community, count(u) AS units, collect(DISTINCT u.component) AS components,
     collect(u.text)[..3] AS top_units
RETURN community, units, components, top_units
ORDER BY units DESC, community
LIMIT $limit
