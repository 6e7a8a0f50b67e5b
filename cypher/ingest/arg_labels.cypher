// Step 2: role labels. $claims / $premises: unit keys used as conclusion / premise.
UNWIND $claims AS uid
MATCH (u:Unit {uid: uid})
SET u:Claim
WITH count(*) AS done
UNWIND $premises AS uid
MATCH (u:Unit {uid: uid})
SET u:Premise
