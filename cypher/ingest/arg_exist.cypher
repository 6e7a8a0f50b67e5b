// Which of $aids are argument nodes already (the targets of a batch of undercuts).
UNWIND $aids AS aid
MATCH (a:Argument {aid: aid})
RETURN aid
