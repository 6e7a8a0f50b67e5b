// Whether premise clusters exist (claim frequencies then need refreshing).
MATCH (c:PremiseCluster) RETURN count(c) > 0 AS any
