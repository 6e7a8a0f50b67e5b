// Premises of the arguments that conclude the claim $claim (a Unit.uid), with stance $stance
// (null: any) and, when $collection is given, from a source whose sid starts with it. Sorted by uid.
MATCH (:Unit {uid: $claim})<-[:CONCLUDES]-(a:Argument)<-[r:PREMISE_OF]-(p:Premise)
WHERE ($stance IS NULL OR r.stance = $stance)
  AND ($collection IS NULL
       OR EXISTS { MATCH (a)-[:FROM]->(s:Source) WHERE s.sid STARTS WITH $collection })
RETURN DISTINCT p.uid AS uid
ORDER BY uid
