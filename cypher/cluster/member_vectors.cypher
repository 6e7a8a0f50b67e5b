// The embeddings of the members of some clusters. $cids: cluster ids.
UNWIND $cids AS cid
MATCH (c:Cluster {cid: cid})<-[:IN_CLUSTER]-(u:Unit)
WHERE u.embedding IS NOT NULL
RETURN cid, collect(u.embedding) AS vectors
