// PREMISE_OF edges whose stance the data left unknown (with $refresh also those the model
// labelled before), with the texts the stance model reads. Keyed by premise uid + argument aid.
MATCH (p:Unit)-[r:PREMISE_OF]->(a:Argument)-[:CONCLUDES]->(c:Unit)
WHERE r.stance = 'unknown' OR ($refresh AND r.stance_source = 'model')
RETURN p.uid AS premise, a.aid AS argument, p.text AS premise_text, c.text AS conclusion_text
