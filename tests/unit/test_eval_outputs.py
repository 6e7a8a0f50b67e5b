"""Every evaluation table ends with each system against BM25 and cosine, query by query."""

from __future__ import annotations

from argkb.eval.outputs import markdown_tables, paired_rows, primary_metric
from argkb.eval.scoring import RunScores


def _run(tag: str, values: dict[str, float], metric: str = "ndcg@10") -> RunScores:
    per_query = {q: {metric: v} for q, v in values.items()}
    mean = {metric: sum(values.values()) / len(values)}
    return RunScores(tag, False, per_query, mean)


def test_each_system_is_compared_with_each_baseline_on_the_primary_metric() -> None:
    runs = [
        _run("default", {"1": 0.9, "2": 0.5, "3": 0.4}),
        _run("bm25", {"1": 0.5, "2": 0.5, "3": 0.6}),
        _run("cosine", {"1": 0.1, "2": 0.2, "3": 0.3}),
        _run("random", {"1": 0.0, "2": 0.0, "3": 0.0}),
    ]
    rows = paired_rows(runs)
    assert [(r["system"], r["baseline"]) for r in rows] == [
        ("default", "bm25"),
        ("default", "cosine"),
    ]
    vs_bm25, vs_cosine = rows
    assert (vs_bm25["wins"], vs_bm25["ties"], vs_bm25["losses"]) == (1, 1, 1)
    assert abs(vs_bm25["mean_difference"] - (0.4 + 0.0 - 0.2) / 3) < 1e-12
    assert vs_bm25["low"] <= vs_bm25["mean_difference"] <= vs_bm25["high"]
    assert (vs_cosine["wins"], vs_cosine["losses"]) == (3, 0)
    assert vs_cosine["low"] > 0  # every query better: the interval excludes zero
    table = markdown_tables(runs)
    assert "| default | bm25 | 1/1/1 | +0.0667 |" in table


def test_task_b_is_primary_where_there_are_clusters_and_no_baseline_means_no_rows() -> None:
    clustered = [_run("default", {"1": 0.5}, "task_b@10"), _run("bm25", {"1": 0.4}, "task_b@10")]
    assert primary_metric(clustered) == "task_b@10"
    assert paired_rows(clustered)[0]["wins"] == 1
    assert paired_rows([_run("default", {"1": 0.5})]) == []
    assert "baselines" not in markdown_tables([_run("default", {"1": 0.5})])


def test_condensed_ndcg_gets_its_column_after_ndcg_and_is_never_primary() -> None:
    both = RunScores("default", False, {"1": {"ndcg@10": 0.5, "ndcg'@10": 0.8}},
                     {"ndcg@10": 0.5, "ndcg'@10": 0.8})  # fmt: skip
    table = markdown_tables([both])
    assert table.splitlines()[0] == "| system | nDCG@10 | nDCG'@10 | queries |"
    assert "| default | 0.5000 | 0.8000 | 1 |" in table
    assert primary_metric([both]) == "ndcg@10"
