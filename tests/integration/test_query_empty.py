"""`argkb query` on a graph with a schema and no arguments: a message, not an error.

A module of its own, so it gets a freshly wiped database (the ``db`` fixture) instead of wiping
the graph test_query.py's tests share.
"""

from __future__ import annotations

import pytest

from argkb.db.schema import init_schema

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]


def test_empty_graph_message(db) -> None:
    from argkb.embed.model import Embedder
    from argkb.query import QueryEngine

    init_schema(db)
    result = QueryEngine(db, Embedder()).query("We should abandon fossil fuels")
    assert result.message and "no claims" in result.message
    assert not result.pro and not result.con
