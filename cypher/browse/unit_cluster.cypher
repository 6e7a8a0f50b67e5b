// The clusters of a unit
// Shows: the unit $unit, the clusters it belongs to (a claim cluster and a premise cluster
//   for a unit that is both) and their other members, as a graph
//   (unit)-[:IN_CLUSTER]->(cluster)<-[:IN_CLUSTER]-(member): one row per other member, and
//   one row without a member for a cluster of the unit alone.
// Returns: graph
// Parameters:
//   $unit (string): the unit's key, text or part of its text
// :param unit => 'Burning fossil fuels drives climate change'
OPTIONAL MATCH (uKey:Unit {uid: $unit})
OPTIONAL CALL (uKey) {
  // the texts are searched only when no unit has the key: otherwise the UNWIND is empty
  UNWIND CASE WHEN uKey IS NULL THEN [toLower($unit)] ELSE [] END AS part
  MATCH (u:Unit) WHERE toLower(u.text) CONTAINS part
  RETURN u ORDER BY size(u.text), u.uid LIMIT 1
}
WITH coalesce(uKey, u) AS u WHERE u IS NOT NULL
MATCH own = (u)-[:IN_CLUSTER]->(c:Cluster)
OPTIONAL MATCH member = (c)<-[:IN_CLUSTER]-(m:Unit)
WHERE m <> u
RETURN own, member
ORDER BY c.cid
