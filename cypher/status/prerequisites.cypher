// What the pipeline's steps need before they write anything: any unit at all, any unit with an
// embedding (argkb cluster), any SAME_AS edge (argkb pagerank --reuse semantic); and whether
// clusters or PageRank scores exist (what argkb db drop marks as stale). Each EXISTS stops at
// the first match.
RETURN EXISTS { MATCH (:Unit) } AS units,
       EXISTS { MATCH (u:Unit) WHERE u.embedding IS NOT NULL } AS embedded,
       EXISTS { MATCH (:Unit)-[:SAME_AS]->(:Unit) } AS same_as,
       EXISTS { MATCH (:Cluster) } AS clustered,
       EXISTS { MATCH (u:Unit) WHERE u.pagerank IS NOT NULL } AS ranked
