// Whether the term statistics describe the stored sentences: the sentence total they hold and
// the number of Sentence nodes (from the count store). They differ after sentences were deleted
// other than by argkb sentences (undoing a failed load), or a run killed between transactions
// of an older argkb; argkb sentences then recounts them.
OPTIONAL MATCH (s:SentenceStats {key: 'all'})
RETURN coalesce(s.sentences, 0) AS stored, COUNT { (:Sentence) } AS actual
