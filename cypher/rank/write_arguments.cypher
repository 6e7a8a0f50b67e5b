// One batch of argument relevances (EACL 2017, Sec. 4.3) as parallel lists: $ids, and
// $min, $avg, $max, $sum of the premises' PageRank.
UNWIND range(0, size($ids) - 1) AS i
MATCH (a:Argument) WHERE id(a) = $ids[i]
SET a.relevance_min = $min[i], a.relevance_avg = $avg[i],
    a.relevance_max = $max[i], a.relevance_sum = $sum[i]
