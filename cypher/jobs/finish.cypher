// The job $name wrote everything: remove its mark (argkb.db.jobs.begin).
MATCH (j:Job {name: $name})
DELETE j
