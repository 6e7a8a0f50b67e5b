// The clusters of one kind: how many, the methods that made them (linkage@cut) and the highest
// number in their ids ('<kind>:<n>'), so that new clusters get fresh ids.
MATCH (c:Cluster {kind: $kind})
RETURN count(c) AS clusters, collect(DISTINCT c.method)[..5] AS methods,
       max(toInteger(split(c.cid, ':')[1])) AS top
