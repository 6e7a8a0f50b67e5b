// What GET /api/v1/status reports: the size of the graph and how much of it is ready to query.
RETURN COUNT { (:Unit) } AS units,
       COUNT { (:Claim) } AS claims,
       COUNT { (:Premise) } AS premises,
       COUNT { (:Argument) } AS arguments,
       COUNT { (:Corpus) } AS corpora,
       COUNT { (:ClaimCluster) } AS claim_clusters,
       COUNT { (:PremiseCluster) } AS premise_clusters,
       COUNT { (u:Unit) WHERE u.embedding IS NOT NULL } AS embedded_units,
       COUNT { (u:Unit) WHERE u.pagerank IS NOT NULL } AS ranked_units
