// Units of one label with an embedding but no cluster of $kind yet (added since the last run),
// a page at a time in id order. {{label}}: Claim|Premise; $kind: claim|premise.
MATCH (u:{{label}})
WHERE id(u) > $after AND u.embedding IS NOT NULL
  AND NOT EXISTS { (u)-[:IN_CLUSTER]->(:Cluster {kind: $kind}) }
RETURN id(u) AS id, u.embedding AS vector
ORDER BY id ASC
LIMIT $limit
