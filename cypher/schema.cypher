// The argkb schema (docs/data-model.md). Every statement is idempotent: `argkb init` runs this
// file as often as it likes. $dimensions is the embedding size of the configured model
// (384 for all-MiniLM-L6-v2).

// Identity of every node kind.
CREATE CONSTRAINT unit_uid IF NOT EXISTS FOR (u:Unit) REQUIRE u.uid IS UNIQUE;
CREATE CONSTRAINT argument_aid IF NOT EXISTS FOR (a:Argument) REQUIRE a.aid IS UNIQUE;
CREATE CONSTRAINT source_sid IF NOT EXISTS FOR (s:Source) REQUIRE s.sid IS UNIQUE;
CREATE CONSTRAINT corpus_cid IF NOT EXISTS FOR (c:Corpus) REQUIRE c.cid IS UNIQUE;
CREATE CONSTRAINT cluster_cid IF NOT EXISTS FOR (c:Cluster) REQUIRE c.cid IS UNIQUE;
CREATE CONSTRAINT sentence_uid IF NOT EXISTS FOR (s:Sentence) REQUIRE s.uid IS UNIQUE;
CREATE CONSTRAINT sentence_term IF NOT EXISTS FOR (t:SentenceTerm) REQUIRE t.term IS UNIQUE;

// Provenance: which corpus first brought a node (load summaries count through these).
CREATE INDEX argument_corpus IF NOT EXISTS FOR (a:Argument) ON (a.corpus);
CREATE INDEX unit_corpus IF NOT EXISTS FOR (u:Unit) ON (u.corpus);
CREATE INDEX source_corpus IF NOT EXISTS FOR (s:Source) ON (s.corpus);

// Louvain communities written by `argkb analytics`: Bloom's "Show community" and the browsing
// query `communities` look a community's units up by it instead of reading every unit.
CREATE INDEX unit_community IF NOT EXISTS FOR (u:Unit) ON (u.community);

// Full-text (Lucene BM25) over claim and premise text: first-stage retrieval and the BM25 baseline.
// Lucene's English analyzer (stop words, possessives, Porter stemming), as the Touche systems'
// indexes: held out, it lifts the default ranker on four of the five benchmarks
// (docs/evaluation.md). 'argkb init' (and every load) rebuilds an index made with another analyzer.
CREATE FULLTEXT INDEX claim_text IF NOT EXISTS FOR (u:Claim) ON EACH [u.text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX premise_text IF NOT EXISTS FOR (u:Premise) ON EACH [u.text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
// Sentences of premises (argkb sentences): the first stage of sentence-pair retrieval.
CREATE FULLTEXT INDEX sentence_text IF NOT EXISTS FOR (s:Sentence) ON EACH [s.text];

// Vector (HNSW, cosine) over unit embeddings, queried with db.index.vector.queryNodes.
CREATE VECTOR INDEX claim_embedding IF NOT EXISTS
FOR (u:Claim) ON u.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX premise_embedding IF NOT EXISTS
FOR (u:Premise) ON u.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
// Sentences embedded by `argkb sentences --embed` (opt-in: a graph has many more sentences than
// units): the sentence-pair pipeline's sentence features and next-sentence pairing.
CREATE VECTOR INDEX sentence_embedding IF NOT EXISTS
FOR (s:Sentence) ON s.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
