// Which of $aids this load run ($token) has already written: a repeated argument id.
UNWIND $aids AS aid
MATCH (a:Argument {aid: aid})
WHERE a.load = $token
RETURN aid
