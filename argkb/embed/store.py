"""Embed the units stored in Neo4j and write their vectors back (``Unit.embedding``).

Units are read in pages ordered by internal id, so an interrupted run resumes where it stopped
(only units without a vector are read). Vectors are written with
``db.create.setNodeVectorProperty`` (float32), which the vector indexes of ``argkb init`` use.
Each unit also gets its word count (``Unit.words``, :func:`word_count`), which the query engine
reads instead of splitting every candidate's text per query.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from argkb.db import cypher

if TYPE_CHECKING:
    import neo4j

    from argkb.embed.model import Embedder


def word_count(text: str | None) -> int:
    """Words of ``text`` as ``cypher/query/premise_edges.cypher`` counts them when a unit has no
    stored count: line breaks and tabs become spaces, then non-empty pieces between spaces."""
    spaced = (text or "").replace("\n", " ").replace("\t", " ").replace("\r", " ")
    return sum(1 for piece in spaced.split(" ") if piece)


@dataclass
class EmbedRun:
    model: str
    device: str
    units: int
    seconds: float
    negations: int = 0  # claims whose negation was embedded (for the stance-alignment model)
    query_model: str | None = None  # the query embedder's cached file, made by `argkb embed`


def count_pending(
    driver: neo4j.Driver, database: str | None = None, *, all_units: bool = False
) -> int:
    return int(cypher.read(driver, "embed/count_pending", database=database, all=all_units)[0]["n"])


def embed_units(
    driver: neo4j.Driver,
    embedder: Embedder,
    database: str | None = None,
    *,
    all_units: bool = False,
    page: int = 2048,
    progress: Callable[[int], object] | None = None,
) -> EmbedRun:
    """Embed every unit without a vector (every unit with ``all_units``); then count the words
    of units embedded before word counts were stored (:func:`backfill_word_counts`)."""
    started = time.perf_counter()
    done = _embed_pages(driver, embedder, database, pending="embed/pending_units",
                        all_units=all_units, page=page, progress=progress)  # fmt: skip
    backfill_word_counts(driver, database)
    return EmbedRun(embedder.model_id, embedder.device if done else "-", done,
                    time.perf_counter() - started)  # fmt: skip


def count_pending_sentences(driver: neo4j.Driver, database: str | None = None) -> dict[str, int]:
    """``{"pending": sentences without a vector, "embedded": sentences with one}``."""
    row = cypher.read(driver, "embed/count_pending_sentences", database=database)[0]
    return {"pending": int(row["n"]), "embedded": int(row["embedded"])}


def embed_sentences(
    driver: neo4j.Driver,
    embedder: Embedder,
    database: str | None = None,
    *,
    all_sentences: bool = False,
    page: int = 2048,
    progress: Callable[[int], object] | None = None,
) -> EmbedRun:
    """Embed every sentence without a vector (every sentence with ``all_sentences``) and make
    sure the ``sentence_embedding`` vector index exists, at the embedder's dimensions."""
    started = time.perf_counter()
    for statement in cypher.statements("schema"):
        if "INDEX sentence_embedding" in statement:
            driver.execute_query(statement, {"dimensions": embedder.dimensions},
                                 database_=database)  # fmt: skip
    done = _embed_pages(driver, embedder, database, pending="embed/pending_sentences",
                        all_units=all_sentences, page=page, progress=progress,
                        write="embed/write_sentence_vectors")  # fmt: skip
    return EmbedRun(embedder.model_id, embedder.device if done else "-", done,
                    time.perf_counter() - started)  # fmt: skip


def backfill_word_counts(
    driver: neo4j.Driver, database: str | None = None, *, batch: int = 10_000
) -> int:
    """Store ``Unit.words`` on embedded units that lack it (graphs embedded by an older argkb);
    returns how many. A graph where every unit has it costs one scan of the units."""
    with driver.session(database=database) as session:
        summary = session.run(cypher.load("embed/backfill_words"), {"batch": batch}).consume()
    return int(summary.counters.properties_set)


def count_negations(
    driver: neo4j.Driver, database: str | None = None, *, all_units: bool = False
) -> int:
    """Claims with a vector whose negation has none yet (see :func:`embed_negations`)."""
    return int(cypher.read(driver, "embed/count_negations", database=database,
                           all=all_units)[0]["n"])  # fmt: skip


def embed_negations(
    driver: neo4j.Driver,
    embedder: Embedder,
    database: str | None = None,
    *,
    all_units: bool = False,
    page: int = 2048,
    progress: Callable[[int], object] | None = None,
) -> int:
    """Embed the negation (:func:`argkb.negation.negate`) of every claim that has a
    vector but no negation vector (every claim with ``all_units``); returns how many.

    The stance-alignment model's contrast ``cos(q, c) - cos(q, not c)`` is then computed on the
    server at query time (``cypher/query/alignment_inputs.cypher``) instead of embedding each
    retrieved claim's negation per query.
    """
    from argkb.negation import negate

    return _embed_pages(driver, embedder, database, pending="embed/pending_negations",
                        all_units=all_units, page=page, progress=progress, text=negate,
                        write="embed/write_negations")  # fmt: skip


def _embed_pages(
    driver: neo4j.Driver,
    embedder: Embedder,
    database: str | None,
    *,
    pending: str,
    all_units: bool,
    page: int,
    progress: Callable[[int], object] | None,
    text: Callable[[str], str] = str,
    write: str = "embed/write_vectors",
) -> int:
    """Page through the query ``pending`` (``id``, ``text``, ids ascending after ``$after``),
    embedding and writing each page; so an interrupted run resumes where it stopped.
    ``progress`` advances as the embedder finishes each chunk of a page (a page of 2,048 long
    texts takes about a minute on a 2-core CPU), before the page is written."""
    after, done = -1, 0
    while True:
        records = cypher.read(driver, pending, database=database, after=after, all=all_units,
                              limit=page)  # fmt: skip
        if not records:
            return done
        _embed_and_write(driver, embedder, records, database, text=text, write=write,
                         progress=progress)  # fmt: skip
        after = records[-1]["id"]
        done += len(records)


def embed_collection(
    driver: neo4j.Driver,
    embedder: Embedder,
    collection: str,
    *,
    database: str | None = None,
    batch: int = 512,
    progress: Callable[[int], object] | None = None,
) -> int:
    """Embed the premises and claims of the arguments from sources whose sid starts with
    ``collection`` that have no vector from ``embedder.model_id``; returns how many.

    Texts are cached by hash, so a repeated run costs a read. The evaluation harness calls this
    before rankers that need vectors of one benchmark's units.
    """
    records = cypher.read(
        driver, "embed/pending_collection", database=database, collection=collection,
        model=embedder.model_id,
    )  # fmt: skip
    for start in range(0, len(records), batch):
        chunk = records[start : start + batch]
        _embed_and_write(driver, embedder, chunk, database)
        if progress:
            progress(len(chunk))
    return len(records)


def _embed_and_write(
    driver: neo4j.Driver,
    embedder: Embedder,
    records: list[Any],
    database: str | None,
    *,
    text: Callable[[str], str] = str,
    write: str = "embed/write_vectors",
    progress: Callable[[int], object] | None = None,
) -> None:
    """Embed ``text(record["text"])`` of each record and store it, by the query ``write``, on
    the unit of its ``id``; ``progress`` as :meth:`argkb.embed.model.Embedder.embed` calls it."""
    texts = [text(r["text"]) for r in records]
    # an embedder of the caller's own (the harness's make_embedder) may take only the texts
    vectors = embedder.embed(texts, progress=progress) if progress else embedder.embed(texts)
    rows = [
        {"id": r["id"], "vector": v.tolist(), "words": word_count(r["text"])}
        for r, v in zip(records, vectors, strict=True)
    ]
    driver.execute_query(
        cypher.load(write),
        {"rows": rows, "model": embedder.model_id},
        database_=database,
    )
