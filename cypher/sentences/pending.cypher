// The next page of premises to split into sentences (ids ascending after $after; all premises
// with text when $all): those never split, those split by another version of the splitter than
// $version (argkb.db.staleness.SPLITTER), and those whose text changed since (its length
// differs from Unit.split_chars, or one of its sentences is no longer the slice of the text at
// its offset). status/stale.cypher counts only the first two (cheap); this finds same-length
// edits as well.
MATCH (u:Premise)
WHERE id(u) > $after AND coalesce(u.text, '') <> ''
  AND ($all OR u.split_chars IS NULL OR u.split_chars <> size(u.text)
       OR coalesce(u.split_version, 1) <> $version
       OR EXISTS {
         MATCH (s:Sentence)-[:IN]->(u)
         WHERE substring(u.text, s.start, size(s.text)) <> s.text
       })
RETURN id(u) AS id, u.uid AS uid, u.text AS text
ORDER BY id ASC
LIMIT $limit
