// Sizes the ranking needs: |Gamma| (claim clusters) and how many claims can be searched.
RETURN COUNT { (:ClaimCluster) } AS claim_clusters, COUNT { (:Claim) } AS claims
