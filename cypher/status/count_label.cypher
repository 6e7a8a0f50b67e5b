// Nodes with one label, answered from the count store. {{label}} is a quoted identifier.
MATCH (n:{{label}}) RETURN count(n) AS count
