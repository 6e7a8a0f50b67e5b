// Version of the Graph Data Science plugin.
RETURN gds.version() AS v
