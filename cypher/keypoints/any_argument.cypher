// Whether the graph holds any argument (from the count store): a topic that no argument
// concludes in an empty graph is told to load a corpus, not to look for topic texts.
MATCH (a:Argument) RETURN count(a) > 0 AS any
