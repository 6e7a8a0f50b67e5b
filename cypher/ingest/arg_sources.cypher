// Step 4: provenance. $rows: [{aid, source}] for arguments that have a source; a source
// created here belongs to corpus $cid (undoing a failed load removes it).
UNWIND $rows AS row
MATCH (a:Argument {aid: row.aid})
MERGE (s:Source {sid: row.source})
  ON CREATE SET s.corpus = $cid
MERGE (a)-[:FROM]->(s)
