// Remove the SAME_AS edges of one method from some claims before writing theirs again.
// $ids: internal ids of the claims; $method.
UNWIND $ids AS uid
MATCH (a:Unit)-[r:SAME_AS {method: $method}]->() WHERE id(a) = uid
DELETE r
