// Undo a failed load, step 2 (after undo_shared): the arguments of corpus $cid go with their
// edges; a unit of another corpus keeps its Claim / Premise label only while an argument still
// uses it so.
// Needs an auto-commit session (batches).
MATCH (a:Argument {corpus: $cid})
CALL (a) {
  OPTIONAL MATCH (a)-[:CONCLUDES]->(c:Unit)
  WITH a, collect(c) AS claims
  OPTIONAL MATCH (p:Unit)-[:PREMISE_OF]->(a)
  WITH a, claims, collect(p) AS premises
  DETACH DELETE a
  WITH claims, premises
  CALL (claims) {
    UNWIND claims AS c
    WITH c
    WHERE NOT EXISTS { (c)<-[:CONCLUDES]-(:Argument) }
    REMOVE c:Claim
  }
  CALL (premises) {
    UNWIND premises AS p
    WITH p
    WHERE NOT EXISTS { (p)-[:PREMISE_OF]->(:Argument) }
    REMOVE p:Premise
  }
} IN TRANSACTIONS OF 1000 ROWS
