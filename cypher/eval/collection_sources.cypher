// How many sources a --collection prefix selects, and a few source ids there are (for the
// message when it selects none).
CALL () {
  MATCH (s:Source) WHERE s.sid STARTS WITH $collection
  RETURN count(s) AS selected
}
CALL () {
  MATCH (s:Source)
  RETURN collect(s.sid)[..5] AS examples
}
RETURN selected, examples
