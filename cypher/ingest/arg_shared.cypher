// Arguments of another corpus that corpus $cid repeats unchanged ($aids): left to that corpus,
// not written again, and recorded as used by $cid, so that undoing or dropping their owner
// passes them to $cid instead of removing them (undo_shared.cypher). The SHARES edges go with
// $cid's Corpus node (undo_corpus.cypher), so a failed load of $cid leaves nothing of them.
MATCH (c:Corpus {cid: $cid})
UNWIND $aids AS aid
MATCH (a:Argument {aid: aid})
MERGE (c)-[:SHARES]->(a)
