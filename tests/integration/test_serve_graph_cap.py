"""``GET /api/v1/graph``'s ``truncated`` on a real Neo4j when the edges a hop may read run out
before the node limit: one premise and one conclusion joined by 45 arguments, each its own
edge. With ``limit`` 2 a hop reads at most 40 edges, so 5 were left out, and the answer said
``truncated: false`` (both units were kept, the node limit not reached)."""

from __future__ import annotations

import json

import pytest

from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader
from argkb.serve.store import EDGES_PER_NODE, Store

pytestmark = [pytest.mark.neo4j]

ARGUMENTS = 45


def test_a_hop_that_read_all_the_edges_it_may_says_truncated(db, tmp_path) -> None:
    path = tmp_path / "parallel.jsonl"
    lines = [
        {"id": f"par{i}", "conclusion": "Cities should ban cars from their centres",
         "premises": [{"text": "Car-free streets are safer for children", "stance": "pro"}]}
        for i in range(ARGUMENTS)
    ]  # fmt: skip
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    init_schema(db)
    load_records(db, "jsonl", [path], reader("jsonl")([path]))
    key = db.execute_query(
        "MATCH (u:Unit {text: 'Car-free streets are safer for children'}) RETURN u.uid AS key"
    ).records[0]["key"]
    store = Store(db)

    assert 2 * EDGES_PER_NODE < ARGUMENTS < 3 * EDGES_PER_NODE
    cut = store.graph(key, 1, 2)
    assert len(cut["nodes"]) == 2 and len(cut["edges"]) == 2 * EDGES_PER_NODE
    assert cut["truncated"]  # 5 of the 45 arguments' edges were not read
    whole = store.graph(key, 1, 3)
    assert len(whole["nodes"]) == 2 and len(whole["edges"]) == ARGUMENTS
    assert not whole["truncated"]
