// The clusters of a unit
// Shows: the unit $unit, the clusters it belongs to (one row each; a claim cluster and a
//   premise cluster for a unit that is both) and their other members, as a graph
//   (unit)-[:IN_CLUSTER]->(cluster)<-[:IN_CLUSTER]-(member).
// Returns: graph
// Parameters:
//   $unit (string): the unit's key, text or part of its text
// :param unit => 'Burning fossil fuels drives climate change'
MATCH (u:Unit)
WHERE u.uid = $unit OR toLower(u.text) CONTAINS toLower($unit)
WITH u ORDER BY u.uid <> $unit, size(u.text), u.uid LIMIT 1
MATCH own = (u)-[:IN_CLUSTER]->(c:Cluster)
OPTIONAL MATCH member = (c)<-[:IN_CLUSTER]-(m:Unit)
WHERE m <> u
RETURN own, member
ORDER BY c.cid
