// The claim cluster of each retrieved claim and all claims in it (the claim alone if
// unclustered), with the retrieved claim's key and text (for the answer's list of claims).
UNWIND $ids AS cid
MATCH (c:Unit) WHERE id(c) = cid
OPTIONAL MATCH (c)-[:IN_CLUSTER]->(g:ClaimCluster)
RETURN cid AS claim, c.uid AS key, c.text AS text, g.cid AS cluster,
       CASE WHEN g IS NULL THEN [cid] ELSE [(g)<-[:IN_CLUSTER]-(m:Claim) | id(m)] END AS members
