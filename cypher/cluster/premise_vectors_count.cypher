// How many premises have an embedding (argkb.cluster.store.same_as_exact).
MATCH (p:Premise)
WHERE p.embedding IS NOT NULL
RETURN count(p) AS n
