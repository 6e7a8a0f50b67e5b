// One page of units: internal ids in [$lo, $hi) as one flat list in one record. Used when no
// warm start is wanted, so no unit's properties are read (see export_units).
UNWIND range($lo, $hi - 1) AS i
MATCH (u:Unit) WHERE id(u) = i
RETURN collect(id(u)) AS ids
