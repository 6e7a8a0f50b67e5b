// The highest internal ids of units and arguments (the export pages through id ranges).
CALL () { MATCH (u:Unit) RETURN coalesce(max(id(u)), -1) AS max_unit }
CALL () { MATCH (a:Argument) RETURN coalesce(max(id(a)), -1) AS max_argument }
RETURN max_unit, max_argument
