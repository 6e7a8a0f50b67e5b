// Relationships of one type, answered from the count store. {{type}} is a quoted identifier.
MATCH ()-[r:{{type}}]->() RETURN count(r) AS count
