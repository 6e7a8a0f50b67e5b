// Each argument takes the community and component of its conclusion, so Bloom and Browser can
// colour arguments too; an undercut, which concludes nothing, those of the conclusion of the
// argument it attacks (through a chain of at most 8 undercuts, the first argument with a
// conclusion).
MATCH (a:Argument)
OPTIONAL MATCH (a)-[:CONCLUDES]->(own:Unit)
OPTIONAL CALL (a, own) {
  WITH a, own WHERE own IS NULL
  MATCH (a)-[:UNDERCUTS]->{1,8}(:Argument)-[:CONCLUDES]->(c:Unit)
  RETURN c LIMIT 1
}
WITH a, coalesce(own, c) AS c WHERE c IS NOT NULL
SET a.community = c.community, a.component = c.component
RETURN count(a) AS arguments
