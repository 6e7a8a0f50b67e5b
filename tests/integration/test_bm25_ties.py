"""The BM25 baseline orders equal scores by unit key: the full-text index gives them in an order
that depends on the store's history (ArgKP dev's BM25 read .4684, .4781 or .4814 on one commit,
a re-measurement found on 2026-11-28)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import pytest
from graphs import load

from argkb.db.schema import init_schema
from argkb.eval.harness import Query
from argkb.loaders.records import text_key
from argkb.retrieve.baselines import Bm25Ranker

pytestmark = pytest.mark.neo4j

# the same four words in other orders: the same BM25 score for any query of them
TEXTS = [
    "cars pollute city air",
    "city air pollute cars",
    "air cars city pollute",
    "pollute air cars city",
    "cars city air pollute",
    "air pollute cars city",
    "city cars pollute air",
]


def test_equal_bm25_scores_come_in_unit_key_order(db, wipe_db, tmp_path: Path) -> None:
    wipe_db(db)
    init_schema(db)
    # written in the reverse of key order, so that the index's own order is not key order
    texts = sorted(TEXTS, key=text_key, reverse=True)
    path = tmp_path / "ties.jsonl"
    lines = [
        {"id": f"a{i}", "conclusion": "Cities should ban cars", "premises": [
            {"text": text, "stance": "pro"}]}
        for i, text in enumerate(texts)
    ]  # fmt: skip
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    load(db, "jsonl", path)
    db.execute_query("CALL db.awaitIndexes(120)")
    first = sorted(text_key(t) for t in TEXTS)[:5]
    cases: list[tuple[Bm25Ranker, Literal["pro", "con"] | None]] = [
        (Bm25Ranker(db), "pro"), (Bm25Ranker(db, stance_aware=False), None)]  # fmt: skip
    for ranker, stance in cases:
        # seven tied, five asked: the five smallest keys, also where no filter reads the
        # index further than k (the index cut the run of ties where it liked; review of 3f9dbac)
        ranking = ranker.rank(Query("q", "pollute", stance, None), 5)
        assert ranking.scores is not None and len(set(ranking.scores)) == 1  # a real tie
        assert list(ranking.representatives) == first
