// One unit by key (GET /api/v1/units/{key}): its text, kinds, PageRank, clusters, how many
// arguments conclude it, and at most $limit arguments it is a premise of (with their conclusion).
MATCH (u:Unit {uid: $key})
RETURN u.uid AS key, u.text AS text, u.pagerank AS pagerank, u.corpus AS corpus,
       u:Claim AS is_claim, u:Premise AS is_premise, u.embedding IS NOT NULL AS embedded,
       [(u)-[:IN_CLUSTER]->(c:Cluster) | {cid: c.cid, kind: c.kind, size: c.size}] AS clusters,
       COUNT { (u)<-[:CONCLUDES]-(:Argument) } AS concluded_by,
       COUNT { (u)-[:PREMISE_OF]->(:Argument) } AS premise_count,
       [(u)-[r:PREMISE_OF]->(a:Argument)-[:CONCLUDES]->(c:Unit)
        | {argument: a.aid, stance: r.stance, stance_source: coalesce(r.stance_source, 'data'),
           claim_key: c.uid, claim_text: c.text}][..$limit] AS premise_of
