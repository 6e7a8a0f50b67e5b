// The units of a neighbourhood (GET /api/v1/graph), by element id.
UNWIND $ids AS eid
MATCH (u:Unit) WHERE elementId(u) = eid
RETURN eid AS id, u.uid AS key, u.text AS text, u.pagerank AS pagerank,
       u:Claim AS is_claim, u:Premise AS is_premise
