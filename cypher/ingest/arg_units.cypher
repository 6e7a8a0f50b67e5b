// Step 1 of an argument batch: every unit it mentions, once, with its role labels (Claim,
// Premise). $rows: [{uid, text, labels}]; $cid.
// A unit created earlier without text (an id-only unit) gets its text when one arrives.
UNWIND $rows AS row
MERGE (u:Unit {uid: row.uid})
  ON CREATE SET u.text = row.text, u.corpus = $cid
  ON MATCH SET u.text = CASE WHEN coalesce(u.text, '') = '' THEN row.text ELSE u.text END
SET u:$(row.labels)
