// One page of units: internal ids in [$lo, $hi) and their stored PageRank (for a warm start),
// as two flat lists in one record (cheap to decode into numpy).
UNWIND range($lo, $hi - 1) AS i
MATCH (u:Unit) WHERE id(u) = i
RETURN collect(id(u)) AS ids, collect(coalesce(u.pagerank, -1.0)) AS pagerank
