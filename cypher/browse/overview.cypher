// Corpus overview
// Shows: what the graph holds: one row per node label and per relationship type with its count,
//   and one row per loaded corpus with its status. Start here on an unknown database.
// Returns: table
// Parameters: none
MATCH (n)
UNWIND labels(n) AS name
RETURN 'label' AS kind, name, count(*) AS count
UNION ALL
MATCH ()-[r]->()
RETURN 'relationship' AS kind, type(r) AS name, count(*) AS count
UNION ALL
MATCH (c:Corpus)
RETURN 'corpus ' + coalesce(c.status, 'unknown') AS kind, coalesce(c.name, c.cid) AS name,
       coalesce(c.units, 0) AS count
