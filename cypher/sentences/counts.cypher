// Sentences stored, the premises that have been split (with or without sentences), and the
// premises there are (from the count store).
CALL () { MATCH (s:Sentence) RETURN count(s) AS sentences }
CALL () { MATCH (u:Premise) WHERE u.split_chars IS NOT NULL RETURN count(u) AS split_premises }
RETURN sentences, split_premises, COUNT { (:Premise) } AS premises
