// Each argument takes the community and component of its conclusion, so Bloom and Browser can
// colour arguments too.
MATCH (a:Argument)-[:CONCLUDES]->(c:Unit)
SET a.community = c.community, a.component = c.component
RETURN count(a) AS arguments
