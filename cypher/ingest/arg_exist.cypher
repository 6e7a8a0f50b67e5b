// Which of $aids are argument nodes already, and of which corpus (the targets of a batch of
// undercuts).
UNWIND $aids AS aid
MATCH (a:Argument {aid: aid})
RETURN aid, a.corpus AS corpus
