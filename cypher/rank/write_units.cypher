// One batch of unit scores. $rows: [{id, score}].
UNWIND $rows AS row
MATCH (u:Unit) WHERE id(u) = row.id
SET u.pagerank = row.score
