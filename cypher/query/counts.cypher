// Sizes the ranking needs: |Gamma| (claim clusters) and how many claims can be searched; and
// whether any unit has a vector (a query cannot be answered before argkb embed), with the model
// of one of them (a query embedded by another model cannot be compared with them). Also what the
// answer is missing, cheaply (a few Corpus and Job nodes, not a scan of the units): corpora
// loaded since the last argkb cluster (their units may lack vectors, clusters, PageRank) and
// runs interrupted while writing (status/stale counts the rest).
RETURN COUNT { (:ClaimCluster) } AS claim_clusters, COUNT { (:Claim) } AS claims,
       EXISTS { MATCH (u:Unit) WHERE u.embedding IS NOT NULL } AS embedded,
       COLLECT { MATCH (u:Unit) WHERE u.embedding IS NOT NULL
                 RETURN u.embedding_model LIMIT 1 } AS models,
       COUNT { (c:Corpus) WHERE c.status = 'complete'
                                AND (c.clustered IS NULL OR c.clustered < c.finished) }
         AS corpora_since_cluster,
       COUNT { (:Job) } AS runs_interrupted
