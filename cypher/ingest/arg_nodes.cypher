// Step 3: the argument nodes. $rows: [{aid, stance, props}]; $cid.
UNWIND $rows AS row
MERGE (a:Argument {aid: row.aid})
SET a.stance = row.stance, a.corpus = $cid, a += row.props
