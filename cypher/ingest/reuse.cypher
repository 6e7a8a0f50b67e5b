// Materialise exact reuse: (a1)-[:REUSES]->(a2) when a2's conclusion is a premise of a1.
// Runs over units that are both claim and premise, in batches (needs an auto-commit session).
MATCH (u:Claim&Premise)
CALL (u) {
  MATCH (a2:Argument)-[:CONCLUDES]->(u)-[:PREMISE_OF]->(a1:Argument)
  WHERE a1 <> a2
  MERGE (a1)-[:REUSES]->(a2)
} IN TRANSACTIONS OF 2000 ROWS
