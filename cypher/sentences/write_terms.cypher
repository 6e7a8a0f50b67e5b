// Term statistics of the sentences, changed by deltas (argkb.sentences.terms.term_deltas), in
// the transaction that replaced the sentences. $terms: [{term, cf, df}]; $tokens, $sentences:
// the change of the totals. A term that no sentence holds any more keeps cf = 0.
UNWIND $terms AS t
MERGE (x:SentenceTerm {term: t.term})
SET x.cf = coalesce(x.cf, 0) + t.cf, x.df = coalesce(x.df, 0) + t.df
WITH count(*) AS changed
MERGE (s:SentenceStats {key: 'all'})
SET s.tokens = coalesce(s.tokens, 0) + $tokens,
    s.sentences = coalesce(s.sentences, 0) + $sentences
