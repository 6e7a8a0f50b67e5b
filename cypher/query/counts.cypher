// Sizes the ranking needs: |Gamma| (claim clusters) and how many claims can be searched; and
// whether any unit has a vector (a query cannot be answered before argkb embed).
RETURN COUNT { (:ClaimCluster) } AS claim_clusters, COUNT { (:Claim) } AS claims,
       EXISTS { MATCH (u:Unit) WHERE u.embedding IS NOT NULL } AS embedded
