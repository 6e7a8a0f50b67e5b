// Step 2: the argument nodes. $rows: [{aid, stance, props}]; $cid; $token marks this load run
// (ingest/arg_seen tells a repeated id within one run from a resumed run).
UNWIND $rows AS row
MERGE (a:Argument {aid: row.aid})
SET a.stance = row.stance, a.corpus = $cid, a.load = $token, a += row.props
