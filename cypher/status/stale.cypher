// What the later pipeline steps have not caught up with since the last loads (one row):
// units without an embedding, claims without the embedding of their negation, claims and
// premises with an embedding but no cluster of their kind, premises not (or no longer) split into
// sentences, corpora loaded since the last split, sentences without a vector (once some have
// one), sentences the term statistics
// miscount, units without PageRank, arguments
// without relevance, whether clusters and relevance exist at all (a step that never ran is
// not older than the last load), and the jobs that started writing derived data
// and never finished (argkb.db.jobs: cluster:claim, cluster:premise, same_as, pagerank).
CALL () {
  MATCH (u:Unit) WHERE u.embedding IS NULL AND coalesce(u.text, '') <> ''
  RETURN count(u) AS units_without_embedding
}
CALL () {
  MATCH (c:Claim)
  WHERE c.embedding IS NOT NULL AND coalesce(c.text, '') <> ''
    AND (c.negation_embedding IS NULL
         OR coalesce(c.negation_model, '') <> coalesce(c.embedding_model, ''))
  RETURN count(c) AS claims_without_negation_embedding
}
CALL () {
  MATCH (c:Claim)
  WHERE c.embedding IS NOT NULL AND NOT EXISTS { (c)-[:IN_CLUSTER]->(:ClaimCluster) }
  RETURN count(c) AS claims_without_cluster
}
CALL () {
  MATCH (p:Premise)
  WHERE p.embedding IS NOT NULL AND NOT EXISTS { (p)-[:IN_CLUSTER]->(:PremiseCluster) }
  RETURN count(p) AS premises_without_cluster
}
CALL () {
  // never split, split by another splitter version than $splitter (argkb.db.staleness.SPLITTER), or
  // the text's length changed since (argkb's loads only fill in empty texts);
  // argkb sentences also compares each sentence with the text (cypher/sentences/pending), which
  // finds same-length hand edits too but reads every sentence: 10x the time of this count
  MATCH (u:Premise)
  WHERE coalesce(u.text, '') <> ''
    AND (u.split_chars IS NULL OR u.split_chars <> size(u.text)
         OR coalesce(u.split_version, 1) <> $splitter)
  RETURN count(u) AS premises_without_sentences
}
CALL () {
  // only once some sentence has a vector: embedding sentences is opt-in (argkb sentences --embed)
  MATCH (x:Sentence) WHERE x.embedding IS NOT NULL
  WITH x LIMIT 1
  MATCH (s:Sentence) WHERE s.embedding IS NULL
  RETURN count(s) AS sentences_without_embedding
}
CALL () {
  // the term statistics (sentences/stats_check) against the Sentence nodes, from the count
  // store: they differ after a corpus was dropped or a failed load undone since argkb sentences
  OPTIONAL MATCH (t:SentenceStats {key: 'all'})
  WITH coalesce(t.sentences, 0) AS stored, COUNT { (:Sentence) } AS actual
  RETURN CASE WHEN stored > actual THEN stored - actual ELSE actual - stored END
           AS sentence_statistics_off
}
CALL () {
  MATCH (u:Unit) WHERE u.pagerank IS NULL
  RETURN count(u) AS units_without_pagerank
}
CALL () {
  // only arguments with a conclusion get relevance (rank/export_arguments): one that only
  // undercuts another (AIF) has none to get
  MATCH (a:Argument) WHERE a.relevance_avg IS NULL AND EXISTS { (a)-[:CONCLUDES]->() }
  RETURN count(a) AS arguments_without_relevance
}
CALL () {
  MATCH (c:Corpus)
  WHERE c.status = 'complete' AND (c.clustered IS NULL OR c.clustered < c.finished)
  RETURN count(c) AS corpora_since_cluster
}
CALL () {
  // as sentences/pending_corpora: corpora whose premises argkb sentences has not run over since
  // they were loaded (Corpus.split_at), which sentence-pair answers note
  MATCH (c:Corpus)
  WHERE c.status = 'complete' AND (c.split_at IS NULL OR c.split_at < c.finished)
  RETURN count(c) AS corpora_since_sentences
}
CALL () {
  OPTIONAL MATCH (j:Job)
  RETURN count(CASE WHEN j.name STARTS WITH 'cluster:' OR j.name = 'same_as' THEN j END)
           AS cluster_runs_interrupted,
         count(CASE j.name WHEN 'pagerank' THEN j END) AS pagerank_runs_interrupted
}
RETURN cluster_runs_interrupted, pagerank_runs_interrupted, units_without_embedding,
       premises_without_sentences, sentences_without_embedding, sentence_statistics_off,
       claims_without_negation_embedding, claims_without_cluster,
       premises_without_cluster, units_without_pagerank, arguments_without_relevance,
       corpora_since_cluster, COUNT { (:Cluster) } > 0 AS clustered,
       corpora_since_sentences, COUNT { (:Sentence) } > 0 AS split,
       EXISTS { MATCH (a:Argument) WHERE a.relevance_avg IS NOT NULL } AS ranked
