"""``argkb sentences``: split premises into ``(:Sentence)-[:IN]->(:Premise)`` nodes.

Incremental like ``argkb embed``: only premises never split, split by another version of the
splitter (:data:`argkb.db.staleness.SPLITTER`), or whose text changed since they were split,
are read (``cypher/sentences/pending.cypher``), in pages ordered by internal id, so an
interrupted run resumes where it stopped. Each page is split in Python
(:func:`argkb.sentences.split.split_sentences`) and written in one transaction that replaces the
premise's old sentences, so a premise never holds a mix of two splits, and updates the term
statistics of :mod:`argkb.sentences.terms` in the same transaction.
"""

from __future__ import annotations

import logging
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from argkb.db import cypher
from argkb.db.staleness import SPLITTER
from argkb.sentences.split import split_sentences
from argkb.sentences.terms import term_deltas, tokenize

if TYPE_CHECKING:
    import neo4j

logger = logging.getLogger(__name__)


@dataclass
class SplitRun:
    premises: int  # premises split in this run
    sentences: int  # sentences written in this run
    seconds: float
    split_seconds: float  # of which splitting in Python (the rest is Neo4j)
    recounted_terms: bool = False  # the term statistics had drifted and were counted again


def count_pending(
    driver: neo4j.Driver, database: str | None = None, *, all_units: bool = False
) -> int:
    """Premises the next run would split (every premise with text with ``all_units``)."""
    rows = cypher.read(driver, "sentences/count_pending", database=database, all=all_units,
                       version=SPLITTER)  # fmt: skip
    return int(rows[0]["n"])


def sentence_counts(driver: neo4j.Driver, database: str | None = None) -> dict[str, int]:
    """``{"sentences": ..., "split_premises": ...}``."""
    row = cypher.read(driver, "sentences/counts", database=database)[0]
    return {"sentences": int(row["sentences"]), "split_premises": int(row["split_premises"])}


def pending_corpora(driver: neo4j.Driver, database: str | None = None) -> list[str]:
    """Corpora loaded since the last complete :func:`split_premises` (``Corpus.split_at``
    older than the load, or never set): their premises may not be split yet."""
    rows = cypher.read(driver, "sentences/pending_corpora", database=database)
    return list(rows[0]["cids"])


def split_premises(
    driver: neo4j.Driver,
    database: str | None = None,
    *,
    all_units: bool = False,
    page: int = 1000,
    progress: Callable[[int], object] | None = None,
) -> SplitRun:
    """Split every pending premise (every premise with ``all_units``) and store its sentences."""
    if page < 1:
        raise ValueError(f"page must be at least 1, got {page}")
    started = time.perf_counter()
    check = cypher.read(driver, "sentences/stats_check", database=database)[0]
    recounted = check["stored"] != check["actual"]
    if recounted:
        logger.warning("term statistics count %d sentences, the graph has %d: recounting",
                       check["stored"], check["actual"])  # fmt: skip
        recount_terms(driver, database)
    corpora = pending_corpora(driver, database)  # the ones complete now: marked once done
    after, premises, sentences, splitting = -1, 0, 0, 0.0
    while True:
        records = cypher.read(driver, "sentences/pending", database=database, after=after,
                              all=all_units, limit=page, version=SPLITTER)  # fmt: skip
        if not records:
            break
        t0 = time.perf_counter()
        rows = []
        for record in records:
            spans = split_sentences(record["text"])
            rows.append({
                "id": record["id"], "uid": record["uid"], "chars": len(record["text"]),
                "sentences": [span._asdict() for span in spans],
            })  # fmt: skip
            sentences += len(spans)
        splitting += time.perf_counter() - t0
        _write_page(driver, database, rows)
        after = records[-1]["id"]
        premises += len(records)
        if progress:
            progress(len(records))
    if corpora:
        cypher.write(driver, "sentences/mark_corpora", database=database, cids=corpora)
    seconds = time.perf_counter() - started
    logger.info("split %d premises into %d sentences in %.1f s", premises, sentences, seconds)
    return SplitRun(premises, sentences, seconds, splitting, recounted)


def _write_page(driver: neo4j.Driver, database: str | None, rows: list[dict[str, Any]]) -> None:
    """Replace the sentences of a page of premises and update the term statistics by the
    difference, in one transaction (so the statistics always describe the stored sentences)."""

    def work(tx: neo4j.ManagedTransaction) -> None:
        result = tx.run(cypher.load("sentences/write"), {"rows": rows, "version": SPLITTER})
        removed = [text for record in result for text in record["old"]]
        added = [s["text"] for row in rows for s in row["sentences"]]
        terms, tokens, sentences = term_deltas(removed, added)
        tx.run(cypher.load("sentences/write_terms"),
               {"terms": terms, "tokens": tokens, "sentences": sentences}).consume()  # fmt: skip

    cypher.log_query("sentences/write", {"rows": rows, "version": SPLITTER})
    with driver.session(database=database) as session:
        session.execute_write(work)


def recount_terms(driver: neo4j.Driver, database: str | None = None, *, page: int = 10_000) -> int:
    """Count the term statistics again from every stored sentence (replacing what is stored);
    returns the number of sentences read. One pass over the sentences, the vocabulary in memory."""
    cf: Counter[str] = Counter()
    df: Counter[str] = Counter()
    after, tokens, sentences = -1, 0, 0
    while True:
        records = cypher.read(driver, "sentences/texts", database=database, after=after,
                              limit=page)  # fmt: skip
        if not records:
            break
        for record in records:
            terms = tokenize(record["text"])
            tokens += len(terms)
            sentences += 1
            cf.update(terms)
            df.update(set(terms))
        after = records[-1]["id"]
    with driver.session(database=database) as session:
        session.run(cypher.load("sentences/clear_terms")).consume()
    rows = [{"term": t, "cf": cf[t], "df": df[t]} for t in sorted(cf)]
    for start in range(0, max(len(rows), 1), page):
        first = start == 0  # the totals go with the first batch
        cypher.write(driver, "sentences/write_terms", database=database,
                     terms=rows[start : start + page], tokens=tokens if first else 0,
                     sentences=sentences if first else 0)  # fmt: skip
    return sentences


def ensure_schema(driver: neo4j.Driver, database: str | None = None) -> int:
    """Create the sentence constraint and full-text index of ``cypher/schema.cypher`` if missing
    (a graph initialised by an older argkb); returns how many were created. Only these, so a
    graph embedded with another model's dimensions is not touched."""
    created = 0
    for statement in cypher.statements("schema"):
        if re.match(r"CREATE\s+(CONSTRAINT|FULLTEXT INDEX)\s+sentence_\w+\s", statement):
            _, summary, _ = driver.execute_query(statement, database_=database)
            created += summary.counters.indexes_added + summary.counters.constraints_added
    return created
