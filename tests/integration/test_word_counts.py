"""Word counts stored by argkb embed equal those the query engine would count per query.

``premise_edges`` reads ``Unit.words`` and counts the words of the text itself only for a unit
without it (a graph embedded before argkb stored counts); both ways must give the same number,
or the "longest" representative of a cluster would change with the graph's age. ``argkb embed``
fills in the counts of such older graphs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argkb.db import cypher
from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

TEXTS = [
    "Cars\tpollute  the air of every city",
    "Line one.\r\nLine two follows.\nAnd a third",
    "  leading and trailing spaces  ",
    "a non\u00a0breaking space and an\u2003em space",
    "one",
    "tabs\t\t\tand\r\rreturns",
]


def test_stored_word_counts_equal_the_fallback(db, tmp_path: Path) -> None:
    from argkb.embed.model import Embedder
    from argkb.embed.store import backfill_word_counts, embed_units

    path = tmp_path / "spaces.jsonl"
    lines = [
        {"id": f"w{i}", "conclusion": f"Claim number {i} about words",
         "premises": [{"text": text, "stance": "pro" if i % 2 else "con"}]}
        for i, text in enumerate(TEXTS)
    ]  # fmt: skip
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    init_schema(db)
    load_records(db, "jsonl", [path], reader("jsonl")([path]))
    embedder = Embedder()
    embed_units(db, embedder)

    counted = """
        MATCH (u:Unit)
        RETURN id(u) AS id, u.text AS text, u.words AS stored,
               size([w IN split(replace(replace(replace(coalesce(u.text, ''), '\\n', ' '),
                     '\\t', ' '), '\\r', ' '), ' ') WHERE w <> '']) AS counted
    """
    rows = db.execute_query(counted).records
    assert len(rows) == 2 * len(TEXTS)
    for row in rows:
        assert row["stored"] is not None, row["text"]
        assert row["stored"] == row["counted"], row["text"]

    # the query file answers the same with and without the stored counts
    ids = [row["id"] for row in rows]
    vector = [float(x) for x in embedder.embed(["words and spaces"], use_cache=False)[0]]
    params: dict[str, Any] = {
        "claims": [],
        "ids": ids,
        "vector": vector,
        "collection": None,
        "argument": None,
    }
    with_counts = cypher.read_columns(db, "query/premise_edges", **params)
    db.execute_query("MATCH (u:Unit) REMOVE u.words")
    without = cypher.read_columns(db, "query/premise_edges", **params)
    assert with_counts == without
    premises = sorted(row["counted"] for row in rows if row["text"] in TEXTS)
    assert len(premises) == len(TEXTS) and sorted(with_counts["words"]) == premises

    # argkb embed fills in the counts of a graph embedded before they were stored
    assert backfill_word_counts(db) == len(rows)
    assert all(row["stored"] == row["counted"] for row in db.execute_query(counted).records)
    assert backfill_word_counts(db) == 0
