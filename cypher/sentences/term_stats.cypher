// Collection statistics for DirichletLM: cf and df of the $terms that occur in some sentence,
// and the totals (tokens, sentences; 0 before argkb sentences ran).
OPTIONAL MATCH (s:SentenceStats {key: 'all'})
CALL () {
  UNWIND $terms AS term
  MATCH (x:SentenceTerm {term: term})
  RETURN collect(x.term) AS term, collect(x.cf) AS cf, collect(x.df) AS df
}
RETURN term, cf, df, coalesce(s.tokens, 0) AS tokens, coalesce(s.sentences, 0) AS sentences
