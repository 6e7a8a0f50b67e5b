"""Embed the units stored in Neo4j and write their vectors back (``Unit.embedding``).

Units are read in pages ordered by internal id, so an interrupted run resumes where it stopped
(only units without a vector are read). Vectors are written with
``db.create.setNodeVectorProperty`` (float32), which the vector indexes of ``argkb init`` use.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

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
    return int(cypher.read(driver, "embed/count_pending", database, all=all_units)[0]["n"])


def embed_units(
    driver: neo4j.Driver,
    embedder: Embedder,
    database: str | None = None,
    *,
    all_units: bool = False,
    page: int = 2048,
    progress: Callable[[int], None] | None = None,
) -> EmbedRun:
    """Embed every unit without a vector (every unit with ``all_units``)."""
    started = time.perf_counter()
    after, done = -1, 0
    write = cypher.load("embed/write_vectors")
    while True:
        records = cypher.read(
            driver, "embed/pending_units", database, after=after, all=all_units, limit=page
        )
        if not records:
            break
        vectors = embedder.embed([r["text"] for r in records])
        rows = [
            {"id": r["id"], "vector": v.tolist()} for r, v in zip(records, vectors, strict=True)
        ]
        driver.execute_query(write, {"rows": rows, "model": embedder.model_id}, database_=database)
        after = records[-1]["id"]
        done += len(records)
        if progress:
            progress(len(records))
    return EmbedRun(embedder.model_id, embedder.device if done else "-", done,
                    time.perf_counter() - started)  # fmt: skip
