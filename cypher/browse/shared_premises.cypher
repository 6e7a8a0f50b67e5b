// Premises used by many claims
// Shows: premises that support or attack at least $min_claims different claims (exact reuse of
//   the same text), with those claims and the stance towards each; most claims first.
// Returns: table
// Parameters:
//   $min_claims (integer, default 2): the least number of distinct claims
//   $limit (integer, default 25): at most this many premises
// :param min_claims => 2
// :param limit => 25
MATCH (p:Premise)-[r:PREMISE_OF]->(:Argument)-[:CONCLUDES]->(c:Unit)
WITH p, collect(DISTINCT {claim: c.text, stance: r.stance}) AS uses,
     count(DISTINCT c) AS claims
WHERE claims >= $min_claims
RETURN p.uid AS uid, p.text AS premise, claims, p.pagerank AS pagerank, uses
ORDER BY claims DESC, coalesce(p.pagerank, -1.0) DESC, p.uid
LIMIT $limit
