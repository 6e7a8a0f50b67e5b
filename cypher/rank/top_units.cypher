// The most relevant units by PageRank, with how often they are reused.
MATCH (u:Unit) WHERE u.pagerank IS NOT NULL
RETURN u.uid AS uid, u.text AS text, u.pagerank AS pagerank,
       COUNT { (u)-[:PREMISE_OF]->() } AS used_as_premise,
       COUNT { (u)<-[:CONCLUDES]-() } AS concluded_by
ORDER BY pagerank DESC LIMIT $limit
