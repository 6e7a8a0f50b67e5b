// Mark a load as started (or resumed). A corpus stays 'loading' until its summary is written.
MERGE (c:Corpus {cid: $cid})
  ON CREATE SET c.created = datetime()
SET c.format = $format, c.name = $name, c.files = $files, c.content_hash = $hash,
    c.status = 'loading', c.started = datetime()
