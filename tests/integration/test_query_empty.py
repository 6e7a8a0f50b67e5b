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


def test_a_graph_embedded_by_another_model_is_refused_in_one_line(db, wipe_db) -> None:
    # a newcomer-review find (2026-11-28): after 'argkb embed --model DIR', queries compared the
    # bundled model's vector with the other model's without a word
    from pathlib import Path

    from argkb.embed.model import Embedder
    from argkb.errors import QueryError
    from argkb.ingest import load_records
    from argkb.loaders import reader
    from argkb.query import QueryEngine

    wipe_db(db)
    init_schema(db)
    sample = Path(__file__).resolve().parents[1] / "fixtures" / "argsme" / "small.json"
    load_records(db, "argsme", [sample], reader("argsme")([sample]))
    embedder = Embedder()
    db.execute_query(
        "MATCH (u:Unit) SET u.embedding = [x IN range(1, 384) | 0.05], u.embedding_model = $m",
        m=f"my-model:0123abcd:{embedder.long_text}",
    )
    with pytest.raises(QueryError) as err:
        QueryEngine(db, embedder).query("We should abandon fossil fuels")
    assert str(err.value).startswith("the graph's vectors come from my-model (my-model:0123abcd")
    assert "run 'argkb embed --all'" in str(err.value)
    # vectors of the same model, stored by another backend or long-text strategy, are fine
    db.execute_query("MATCH (u:Unit) SET u.embedding_model = $m",
                     m=":".join(embedder.model_id.split(":")[:2]) + ":sentences")  # fmt: skip
    assert embedder.reads_like(
        db.execute_query("MATCH (u:Unit) RETURN u.embedding_model AS m LIMIT 1").records[0]["m"]
    )
