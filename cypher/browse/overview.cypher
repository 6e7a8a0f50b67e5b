// Corpus overview
// Shows: what the graph holds: one row per node label and per relationship type with its count,
//   and one row per loaded corpus with its status. Start here on an unknown database.
// Returns: table
// Parameters: none
CALL db.labels() YIELD label
// the labels and types of argkb's data model are counted from Neo4j's count store (no node or
// edge is read); any other by a scan
WITH label, CASE label
  WHEN 'Unit' THEN COUNT { (:Unit) } WHEN 'Claim' THEN COUNT { (:Claim) }
  WHEN 'Premise' THEN COUNT { (:Premise) } WHEN 'KeyPoint' THEN COUNT { (:KeyPoint) }
  WHEN 'Argument' THEN COUNT { (:Argument) } WHEN 'Source' THEN COUNT { (:Source) }
  WHEN 'Corpus' THEN COUNT { (:Corpus) } WHEN 'Sentence' THEN COUNT { (:Sentence) }
  WHEN 'SentenceTerm' THEN COUNT { (:SentenceTerm) }
  WHEN 'SentenceStats' THEN COUNT { (:SentenceStats) } WHEN 'Job' THEN COUNT { (:Job) }
  WHEN 'Cluster' THEN COUNT { (:Cluster) } WHEN 'ClaimCluster' THEN COUNT { (:ClaimCluster) }
  WHEN 'PremiseCluster' THEN COUNT { (:PremiseCluster) }
  WHEN 'ClusterOf1' THEN COUNT { (:ClusterOf1) } WHEN 'ClusterOf2to4' THEN COUNT { (:ClusterOf2to4) }
  WHEN 'ClusterOf5to19' THEN COUNT { (:ClusterOf5to19) }
  WHEN 'ClusterOf20to99' THEN COUNT { (:ClusterOf20to99) }
  WHEN 'ClusterOf100plus' THEN COUNT { (:ClusterOf100plus) }
  ELSE COUNT { (:$(label)) }
END AS count
WHERE count > 0
RETURN 'label' AS kind, label AS name, count
UNION ALL
CALL db.relationshipTypes() YIELD relationshipType AS type
WITH type, CASE type
  WHEN 'CONCLUDES' THEN COUNT { ()-[:CONCLUDES]->() }
  WHEN 'PREMISE_OF' THEN COUNT { ()-[:PREMISE_OF]->() }
  WHEN 'UNDERCUTS' THEN COUNT { ()-[:UNDERCUTS]->() } WHEN 'REUSES' THEN COUNT { ()-[:REUSES]->() }
  WHEN 'SAME_AS' THEN COUNT { ()-[:SAME_AS]->() } WHEN 'FROM' THEN COUNT { ()-[:FROM]->() }
  WHEN 'SHARES' THEN COUNT { ()-[:SHARES]->() }
  WHEN 'IN_CLUSTER' THEN COUNT { ()-[:IN_CLUSTER]->() }
  WHEN 'MATCHES_KEY_POINT' THEN COUNT { ()-[:MATCHES_KEY_POINT]->() }
  WHEN 'IN' THEN COUNT { ()-[:IN]->() } WHEN 'NEXT' THEN COUNT { ()-[:NEXT]->() }
  ELSE COUNT { ()-[:$(type)]->() }
END AS count
WHERE count > 0
RETURN 'relationship' AS kind, type AS name, count
UNION ALL
MATCH (c:Corpus)
RETURN 'corpus ' + coalesce(c.status, 'unknown') AS kind, coalesce(c.name, c.cid) AS name,
       coalesce(c.units, 0) AS count
