"""bench/argquality_one_sided.py: each query asked once per side, judged on that side only."""

from __future__ import annotations

from argkb.eval.harness import Benchmark, Query
from bench.argquality_one_sided import one_sided


def test_each_query_is_asked_per_side_and_judged_on_that_sides_premises() -> None:
    both = Benchmark(
        "argquality-long",
        [Query("7", "School uniforms should be required", None, "argquality:")],
        {"7": {"a": 2.0, "b": 1.0, "c": 0.0}},
        None,
        {"7": {"uid-a": "a", "uid-b": "b", "uid-c": "c"}},
        {"uid-a": "a"},
    )
    got = one_sided(both, {"a": "pro", "b": "con", "c": "pro"})
    assert [(q.qid, q.text, q.stance) for q in got.queries] == [
        ("7-pro", "School uniforms should be required", "pro"),
        ("7-con", "School uniforms should be required", "con"),
    ]
    assert got.qrels == {"7-pro": {"a": 2.0, "b": 0.0, "c": 0.0},
                         "7-con": {"a": 0.0, "b": 1.0, "c": 0.0}}  # fmt: skip
    assert got.doc_ids["7-pro"] == got.doc_ids["7-con"] == both.doc_ids["7"]
    assert got.clusters is None and got.fallback_doc_ids == {"uid-a": "a"}
