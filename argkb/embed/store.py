"""Embed the units stored in Neo4j and write their vectors back (``Unit.embedding``).

Units are read in pages ordered by internal id, so an interrupted run resumes where it stopped
(only units without a vector are read). Vectors are written with
``db.create.setNodeVectorProperty`` (float32), which the vector indexes of ``argkb init`` use.
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


@dataclass
class EmbedRun:
    model: str
    device: str
    units: int
    seconds: float


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
    """Embed every unit without a vector (every unit with ``all_units``)."""
    started = time.perf_counter()
    after, done = -1, 0
    while True:
        records = cypher.read(
            driver, "embed/pending_units", database=database, after=after, all=all_units, limit=page
        )
        if not records:
            break
        _embed_and_write(driver, embedder, records, database)
        after = records[-1]["id"]
        done += len(records)
        if progress:
            progress(len(records))
    return EmbedRun(embedder.model_id, embedder.device if done else "-", done,
                    time.perf_counter() - started)  # fmt: skip


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
    driver: neo4j.Driver, embedder: Embedder, records: list[Any], database: str | None
) -> None:
    """Embed the ``text`` of each record and store it on the unit of its ``id``."""
    vectors = embedder.embed([r["text"] for r in records])
    rows = [{"id": r["id"], "vector": v.tolist()} for r, v in zip(records, vectors, strict=True)]
    driver.execute_query(
        cypher.load("embed/write_vectors"),
        {"rows": rows, "model": embedder.model_id},
        database_=database,
    )
