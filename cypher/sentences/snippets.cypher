// Snippets of an answer's premises (argkb.sentences.snippet), in one read: the key and the
// sentences, in text order, of each unit whose internal id is in $ids (units without sentences
// are left out), and the DirichletLM collection statistics of the query's $terms (as
// sentences/term_stats).
OPTIONAL MATCH (st:SentenceStats {key: 'all'})
CALL () {
  UNWIND $ids AS id
  MATCH (u:Unit) WHERE id(u) = id
  MATCH (s:Sentence)-[:IN]->(u)
  WITH u.uid AS key, s ORDER BY s.position
  WITH key, collect(s.text) AS texts
  RETURN collect(key) AS key, collect(texts) AS texts
}
CALL () {
  UNWIND $terms AS term
  MATCH (x:SentenceTerm {term: term})
  RETURN collect(x.term) AS term, collect(x.cf) AS cf
}
RETURN key, texts, term, cf, coalesce(st.tokens, 0) AS tokens,
       coalesce(st.sentences, 0) AS sentences
