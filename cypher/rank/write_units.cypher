// One batch of unit scores as parallel lists (cheaper to send than a map per row):
// $ids (internal ids) and $scores.
UNWIND range(0, size($ids) - 1) AS i
MATCH (u:Unit) WHERE id(u) = $ids[i]
SET u.pagerank = $scores[i]
