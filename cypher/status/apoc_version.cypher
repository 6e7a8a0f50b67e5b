// Version of the APOC core plugin.
RETURN apoc.version() AS v
