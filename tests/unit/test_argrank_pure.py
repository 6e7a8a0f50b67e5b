"""The pure parts of ``argkb eval argrank`` (no Neo4j): best/worst counts, Jaccard, Table 2,
leave-one-conclusion-out fusion and the content rows, on the hand-made fixture of
tests/fixtures/argrank_eval/ (its taus by hand: tests/integration/test_eval_argrank.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from argkb.eval.argrank import best_worst, jaccard, loco_fusion, markdown_report, table2
from argkb.loaders.argrank import load_benchmark

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "argrank_eval"
A, B, C = 1, 10, 20


def approx(expected: dict[int, float]) -> dict[int, object]:
    return {k: pytest.approx(v, abs=1e-9) for k, v in expected.items()}


def test_best_worst_with_random_runs_gives_expected_counts() -> None:
    taus = {"x": {1: 0.5, 2: 0.0}, "y": {1: -0.5, 2: 0.0}}
    # Run 1: random 1.0 on conclusion 1 (x second), -1.0 on 2 (x, y tie best at 0).
    # Run 2: random 0.0 on 1 (x best, y worst), 0.0 on 2 (three-way tie: all best and worst).
    runs = [{1: 1.0, 2: -1.0}, {1: 0.0, 2: 0.0}]
    counts = best_worst(taus, runs)
    # x: best (0 + 1) + (1 + 1) = 3 over 2 runs = 1.5; worst (0 + 0) + (0 + 1) = 0.5
    assert counts["x"] == (1.5, 0.5)
    assert counts["y"] == (1.0, 1.5)  # best 0+1, 0+1; worst 1+0, 1+1
    assert counts["random"] == (1.0, 1.0)  # best 1+0, 0+1; worst 0+1, 0+1


def test_jaccard_and_table_without_neo4j() -> None:
    assert jaccard("Useful tools are useful.", "Phones are useful") == pytest.approx(0.5)
    assert jaccard("", "") == 0.0
    arguments = load_benchmark(FIXTURE)
    # Scores that follow the benchmark ranks exactly: tau 1 everywhere.
    perfect = [[-float(a.aggregate_rank)] * len(a.premise_ids) for a in arguments]
    table = table2(arguments, {"pagerank": perfect}, seeds=3)
    cell = table.row("pagerank").cells["min"]
    assert cell is not None and cell.tau == pytest.approx(1.0)
    assert table.conclusions == 3 and table.arguments == 7
    assert "| Random | n/a |" in markdown_report_for(table)


def markdown_report_for(table) -> str:
    from argkb.eval.argrank import ArgRankReport

    report = ArgRankReport("x", 0.85, "pool", "maps", 3, table, [], [], {}, {}, {})
    return markdown_report(report)


def test_loco_fusion_never_uses_the_held_out_conclusion() -> None:
    arguments = load_benchmark(FIXTURE)
    ranks = [-float(a.aggregate_rank) for a in arguments]
    # base is the reverse of the truth, the other signal is the truth: weight 0 gives tau -1
    # everywhere, weight 4 (any weight > 1) gives +1, so every fold picks 4.
    held_out, chosen = loco_fusion(arguments, [-r for r in ranks], {"truth": ranks}, (0.0, 4.0))
    assert all(weights == {"truth": 4.0} for weights in chosen.values())
    assert held_out == approx({A: 1.0, B: 1.0, C: 1.0})


@pytest.mark.slow
def test_content_rows_with_the_default_model() -> None:
    from argkb.embed.model import Embedder
    from argkb.eval.argrank import content_rows

    arguments = load_benchmark(FIXTURE)
    structure = [[1.0] * len(a.premise_ids) for a in arguments]
    rows = {row.key: row for row in content_rows(arguments, structure, Embedder(cache=False).embed)}
    # Premise length (words read by the experts): A: 101 3 < 102 4 < 103 6, the reverse of the
    # ranks: -1; B: 201 6 > 202 4: +1; C: 301 2 < 302 7: -1.
    assert rows["premise_length"].taus["sum"] == approx({A: -1.0, B: 1.0, C: -1.0})
    assert set(rows) == {
        "embedding_similarity",
        "pagerank_x_similarity",
        "rank_fusion",
        "premise_length",
        "loco_fusion",
    }
    assert all(-1 <= tau <= 1 for row in rows.values() for tau in row.tau.values())
