// One batch of argument relevances (EACL 2017, Sec. 4.3). $rows: [{id, min, avg, max, sum}].
UNWIND $rows AS row
MATCH (a:Argument) WHERE id(a) = row.id
SET a.relevance_min = row.min, a.relevance_avg = row.avg,
    a.relevance_max = row.max, a.relevance_sum = row.sum
