// Step 4: provenance. $rows: [{aid, source}] for arguments that have a source.
UNWIND $rows AS row
MATCH (a:Argument {aid: row.aid})
MERGE (s:Source {sid: row.source})
MERGE (a)-[:FROM]->(s)
