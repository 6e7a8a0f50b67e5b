// Undo a failed load, last step: its corpus node.
MATCH (c:Corpus {cid: $cid})
DETACH DELETE c
