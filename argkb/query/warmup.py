"""Warming a Neo4j server up for the query engine.

A Neo4j server that just started pays, on the first uses of its indexes and statements, for
opening the full-text and vector indexes, planning, and the JVM compiling the hot paths. The
first ``argkb query`` after ``argkb server start`` then took 12.7 s, the second 2.4 s (the
demo's graph, 2026-12-02, this 2-core machine at load 4 to 5; 10.9 s and 0.9 s at load 2 to 3
in session 30); after five warm-up queries the first took 3.1 s. So ``argkb server start``,
``argkb browse`` when it (re)starts the server, and ``argkb serve`` answer
:data:`WARM_UP_QUERIES` once before the user asks.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from argkb.errors import ArgKBError

if TYPE_CHECKING:
    from collections.abc import Callable

    import neo4j

    from argkb.query.engine import QueryEngine

WARM_UP_QUERIES = ("warm up", "energy", "education should be free", "health", "technology")
"""Five queries: with ``argkb serve`` (2026-11-27, the demo's server just restarted) the first
request took 3.5 s without a warm-up, 1.4 s after one warm-up query, .23 s after these five
(5.8 s of warm-up), later ones .07 to .09 s."""


def warm_up(
    engine: QueryEngine, *, then: str, announce: Callable[[str], None] | None = None
) -> str:
    """Answer :data:`WARM_UP_QUERIES` with ``engine`` (one premise cluster a side) and return
    what to tell the user, in one line. A graph with nothing embedded yet is not asked (there
    is nothing to warm); a failure is told, not raised, ``then`` saying what happens next
    (e.g. "serving anyway"); ``announce`` is told when the queries begin. Errors that are
    neither argkb's nor the driver's are raised."""
    from argkb.db.failures import translate

    started = time.perf_counter()
    try:
        if not engine.counts()["embedded"]:
            return "no warm-up: nothing in the graph is embedded yet"
        if announce is not None:
            announce("warming Neo4j's indexes and query plans up for queries ...")
        for text in WARM_UP_QUERIES:
            engine.query(text, k=1)
    except Exception as err:  # argkb's or the driver's error, said in one line; else a bug
        known = err if isinstance(err, ArgKBError) else translate(err, "the warm-up query")
        if known is None:
            raise
        return f"warm-up query failed, {then}: {known}"
    return f"indexes and query plans warmed up in {time.perf_counter() - started:.1f} s"


def warm_up_server(
    driver: neo4j.Driver,
    *,
    database: str | None = None,
    announce: Callable[[str], None] | None = None,
) -> str:
    """:func:`warm_up` with the default settings and the query embedder, for a server that
    just started (``argkb server start``, ``argkb browse``)."""
    from argkb.embed.model import Embedder
    from argkb.query.engine import QueryEngine

    engine = QueryEngine(driver, Embedder.for_queries(), database=database)
    return warm_up(engine, then="the server runs anyway", announce=announce)
