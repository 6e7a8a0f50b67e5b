// Mark that a job rewriting derived data in several transactions has started ($name), before its
// first write; argkb.db.jobs.finish removes the mark after its last.
MERGE (j:Job {name: $name})
SET j.started = datetime()
