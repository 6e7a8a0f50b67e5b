// Whether claim and premise clusters exist.
RETURN COUNT { (:ClaimCluster) } > 0 AS claims, COUNT { (:PremiseCluster) } > 0 AS premises
