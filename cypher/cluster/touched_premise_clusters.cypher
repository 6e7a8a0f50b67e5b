// Premise clusters whose claim frequencies (cf_pro, cf_con) may have changed: those of the
// premises of every argument that has a unit clustered in this run ($ids: internal ids) or
// comes from a corpus loaded since the last cluster run ($corpora: cids).
CALL () {
  UNWIND $ids AS uid
  MATCH (u:Unit) WHERE id(u) = uid
  MATCH (u)-[:PREMISE_OF|CONCLUDES]-(a:Argument)
  RETURN a
  UNION
  UNWIND $corpora AS cid
  MATCH (a:Argument {corpus: cid})
  RETURN a
}
WITH DISTINCT a
MATCH (p:Unit)-[:PREMISE_OF]->(a)
MATCH (p)-[:IN_CLUSTER]->(pc:PremiseCluster)
RETURN collect(DISTINCT pc.cid) AS cids
