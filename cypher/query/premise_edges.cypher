// Every argument the candidate premises are used in: the claim it concludes, the premise's stance
// towards it and the premise's cluster (cf_pro / cf_con: corpus-wide claim frequencies); and,
// per premise, the cosine of the query embedding $vector with its embedding, computed on the
// server so that no vector travels back (Neo4j reports (1 + cos) / 2; -2 without an embedding),
// and its word count (for the "longest" representative): the one argkb embed stored, else
// counted here.
// The candidates: the premises of the claims $claims (the claim route) and the premises $ids
// (the direct routes), read in one pass so the claim route's edges are not read twice.
// premise_key: the premise's Unit.uid, stable across reloads (internal ids are not), which
// orders candidates and breaks ties.
// One row of equal-length lists, an edge per position (cypher.read_columns); a premise's score
// and words repeat on each of its edges. collect() drops nulls, so an unclustered premise has
// cluster '' and cf_pro = cf_con = -1.
// $collection (a Source.sid prefix, or null) keeps only arguments from matching sources.
// $argument (a unit vector, or null): each premise's similarity to it, for the argumentativeness
// prior (argkb/retrieve/argument_prior.py); -2 without an embedding or without $argument.
// claim_score: the query's similarity to the edge's claim, as score (-2 without an embedding);
// the linear fusion's claim feature (argkb/retrieve/fusion.py).
CALL {
  UNWIND $claims AS cid
  MATCH (c:Unit)<-[:CONCLUDES]-(a:Argument)<-[:PREMISE_OF]-(p:Unit)
  WHERE id(c) = cid AND p <> c
    AND ($collection IS NULL
         OR EXISTS { (a)-[:FROM]->(s:Source) WHERE s.sid STARTS WITH $collection })
  RETURN collect(id(p)) AS claimed
}
UNWIND claimed + $ids AS pid
WITH DISTINCT pid
MATCH (p:Unit) WHERE id(p) = pid
WITH p, pid,
     CASE WHEN p.embedding IS NULL THEN -2.0
          ELSE vector.similarity.cosine(p.embedding, $vector) END AS score,
     CASE WHEN p.embedding IS NULL OR $argument IS NULL THEN -2.0
          ELSE vector.similarity.cosine(p.embedding, $argument) END AS prior,
     CASE WHEN p.words IS NOT NULL THEN p.words  // not coalesce(): it would split the text too
          ELSE size([w IN split(replace(replace(replace(
                 coalesce(p.text, ''), '\n', ' '), '\t', ' '), '\r', ' '), ' ') WHERE w <> ''])
     END AS words
MATCH (p)-[r:PREMISE_OF]->(a:Argument)-[:CONCLUDES]->(c:Unit)
WHERE p <> c
  AND ($collection IS NULL
       OR EXISTS { (a)-[:FROM]->(s:Source) WHERE s.sid STARTS WITH $collection })
OPTIONAL MATCH (p)-[:IN_CLUSTER]->(pc:PremiseCluster)
WITH p, pid, r, a, c, pc, score, prior, words,
     CASE WHEN c.embedding IS NULL THEN -2.0
          ELSE vector.similarity.cosine(c.embedding, $vector) END AS claim_score
RETURN collect(id(c)) AS claim, collect(pid) AS premise, collect(p.uid) AS premise_key,
       collect(coalesce(r.stance, 'unknown')) AS stance,
       collect(coalesce(r.stance_source, 'data')) AS stance_source, collect(a.aid) AS argument,
       collect(coalesce(pc.cid, '')) AS cluster, collect(coalesce(pc.cf_pro, -1)) AS cf_pro,
       collect(coalesce(pc.cf_con, -1)) AS cf_con, collect(score) AS score,
       collect(words) AS words, collect(prior) AS prior,
       collect(claim_score) AS claim_score
