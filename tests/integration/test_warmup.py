"""The warm-up of a Neo4j server that just started (``argkb server start``, ``argkb browse``):
it answers queries on a graph with vectors and says so, and skips a graph without them."""

from __future__ import annotations

from pathlib import Path

import pytest

from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
DEMO = Path(__file__).resolve().parents[2] / "examples" / "debates.json"


def test_warm_up_skips_an_unembedded_graph_then_answers_queries(db) -> None:
    from argkb.embed.model import Embedder
    from argkb.embed.store import embed_units
    from argkb.query import warmup

    told: list[str] = []
    init_schema(db)
    assert warmup.warm_up_server(db, announce=told.append) == (
        "no warm-up: nothing in the graph is embedded yet"
    )
    assert told == []  # nothing announced: no query was asked
    load_records(db, "argsme", [DEMO], reader("argsme")([DEMO]))
    assert warmup.warm_up_server(db).startswith("no warm-up: ")  # loaded, not embedded
    embed_units(db, Embedder(cache=False))
    said = warmup.warm_up_server(db, announce=told.append)
    assert said.startswith("indexes and query plans warmed up in "), said
    assert len(told) == 1


def test_a_failing_warm_up_is_one_line_and_not_raised(db) -> None:
    from argkb.query import warmup

    said = warmup.warm_up_server(db, database="nosuchdatabase")
    assert said.startswith("warm-up query failed, the server runs anyway: "), said
    assert "\n" not in said
