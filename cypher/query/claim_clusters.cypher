// The claim cluster of each retrieved claim and the claims of it that the answer reads (the
// claim alone if unclustered), with the retrieved claim's key and text (for the answer's list
// of claims). members: the retrieved claim first, then at most $others of the cluster's other
// claims, nearest the query first (a claim without an embedding last), so that a cluster of a
// thousand claims does not bring a thousand claims' premises into one answer.
UNWIND $ids AS cid
MATCH (c:Unit) WHERE id(c) = cid
OPTIONAL MATCH (c)-[:IN_CLUSTER]->(g:ClaimCluster)
RETURN cid AS claim, c.uid AS key, c.text AS text, g.cid AS cluster,
       CASE WHEN g IS NULL THEN [cid] ELSE [cid] + COLLECT {
         MATCH (g)<-[:IN_CLUSTER]-(m:Claim) WHERE m <> c
         WITH m, coalesce(vector.similarity.cosine(m.embedding, $vector), -1.0) AS near
         ORDER BY near DESC, m.uid
         LIMIT $others
         RETURN id(m)
       } END AS members
