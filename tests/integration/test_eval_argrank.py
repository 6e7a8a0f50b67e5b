"""``argkb eval argrank`` on a hand-made Webis-ArgRank-17 fixture, with taus computed by hand.

The fixture (tests/fixtures/argrank_eval/) has three benchmark conclusions:

    A = unit 1   args 101 {2} (rank 1), 102 {3} (rank 2), 103 {4, 5} (rank 3); also 30 -> 2
    B = unit 10  args 201 {11} (rank 1), 202 {12} (rank 2);                    also 40 -> 12
    C = unit 20  args 301 {21} (rank 1), 302 {22} (rank 2)

and f(u) (AIFdb maps per unit, rows of unit-source-list.csv) = 2 for unit 2, 3 for unit 12 and
1 for every other unit.

PageRank by hand, on the literal formula (dropping the dangling mass rescales every score by the
same factor, so rankings are those of argkb's run), with b = (1 - alpha) / N, alpha = 0.85.
Units that are no premise (1, 10, 20, 30, 40) keep y = b.
shared="pool": a conclusion shares its score equally among all premise slots of its arguments:
    unit 1 has 4 slots: y2 = b + .85b/4 + .85b (from 30) = 2.0625b; y3 = y4 = y5 = 1.2125b
    unit 10 has 2 slots: y11 = b + .85b/2 = 1.425b; y12 = 1.425b + .85b (from 40) = 2.275b
    unit 20 has 2 slots: y21 = y22 = 1.425b
divided by f: p2 = 1.03125b, p3 = p4 = p5 = 1.2125b, p11 = 1.425b, p12 = 0.7583b, p21 = p22.
shared="split": unit 1 gives b/3 to each argument, argument 103 halves it:
    y2 = b + .85b/3 + .85b = 2.1333b, y3 = 1.2833b, y4 = y5 = 1.1417b (B and C as above).

Kendall's tau-b is taken against -rank: for 3 arguments with one tied pair in the scores,
tau = (C - D) / sqrt(3 * 2); a conclusion whose arguments all score the same counts as 0.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.eval.argrank import (
    evaluate_argrank,
)

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "argrank_eval"
A, B, C = 1, 10, 20
T = 2 / math.sqrt(6)  # 0.8165: tau-b of 3 items with C - D = +-2 and one tie in the scores


def approx(expected: dict[int, float]) -> dict[int, object]:
    return {k: pytest.approx(v, abs=1e-9) for k, v in expected.items()}


@pytest.fixture(scope="module")
def report(db):
    return evaluate_argrank(db, FIXTURE, seeds=0, variants=True)


# -- hand-computed taus ------------------------------------------------------------------------


@pytest.mark.neo4j
def test_pagerank_taus_by_hand(report) -> None:
    pagerank = report.table.row("pagerank").taus
    # A, min / avg / max: 101 = 1.03125b < 102 = 103 = 1.2125b: both pairs with 101 discordant,
    # (102, 103) tied: (0 - 2) / sqrt(6) = -T. B: p11 > p12, the order of the ranks: +1.
    # C: p21 = p22, no untied pair: tau-b undefined, counted as 0.
    for agg in ("min", "avg", "max"):
        assert pagerank[agg] == approx({A: -T, B: 1.0, C: 0.0})
    # A, sum: 101 = 1.03125b < 102 = 1.2125b < 103 = 2.425b: the reverse of the ranks: -1.
    assert pagerank["sum"] == approx({A: -1.0, B: 1.0, C: 0.0})
    row = report.table.row("pagerank")
    assert row.cells["min"].tau == pytest.approx((-T + 1) / 3)  # 0.0612
    assert row.cells["sum"].tau == pytest.approx(0.0)


@pytest.mark.neo4j
def test_baseline_taus_by_hand(report) -> None:
    frequency = report.table.row("frequency").taus
    # A: f = 2 (101), 1 (102), 1 and 1 (103). min: 101 > 102 = 103: +T. sum: 101 = 103 = 2 > 102:
    # (101, 102) concordant, (102, 103) discordant, (101, 103) tied: 0. B: f12 = 3 > f11 = 1: -1.
    assert frequency["min"] == approx({A: T, B: -1.0, C: 0.0})
    assert frequency["sum"] == approx({A: 0.0, B: -1.0, C: 0.0})
    similarity = report.table.row("similarity").taus
    # Jaccard with the conclusion: A: 2: 2/4, 3: 0, 4: 1/4, 5: 0, so sum 101 .5 > 103 .25 > 102 0:
    # (101, 102) C, (101, 103) C, (102, 103) D: 1/3; min 101 .5 > 102 = 103 = 0: +T.
    # B: 11: 1/5 < 12: 2/4: -1. C: 21 = 22 = 1/4: 0.
    assert similarity["sum"] == approx({A: 1 / 3, B: -1.0, C: 0.0})
    assert similarity["min"] == approx({A: T, B: -1.0, C: 0.0})
    # Most premises: A: 1, 1, 2: 103 first: (101, 103), (102, 103) discordant, one tie: -T.
    assert report.table.row("most_premises").taus["best"] == approx({A: -T, B: 0.0, C: 0.0})
    assert report.table.row("most_premises").cells["best"].tau == pytest.approx(-T / 3)
    with pytest.raises(KeyError):
        report.table.row("random")  # seeds=0


@pytest.mark.neo4j
def test_best_and_worst_counts_by_hand(report) -> None:
    cells = {row.key: row.cells for row in report.table.rows}
    # Sum column, competitors PageRank, Frequency, Similarity (sum) and Most premises:
    # A: -1, 0, 1/3, -T -> best Similarity, worst PageRank;
    # B: 1, -1, -1, 0  -> best PageRank, worst Frequency and Similarity;
    # C: all 0         -> everyone best and worst.
    assert (cells["pagerank"]["sum"].best, cells["pagerank"]["sum"].worst) == (2, 2)
    assert (cells["frequency"]["sum"].best, cells["frequency"]["sum"].worst) == (1, 2)
    assert (cells["similarity"]["sum"].best, cells["similarity"]["sum"].worst) == (2, 2)
    # Column "best": the aggregation with the highest mean (ties prefer sum, max, avg, min):
    # PageRank max (0.061 > sum 0), Frequency max (-0.061 > sum -1/3), Similarity min
    # (-0.061 > -2/9). A: -T, T, T, -T; B: 1, -1, -1, 0; C: all 0.
    assert cells["pagerank"]["best"].aggregation == "max"
    assert cells["frequency"]["best"].aggregation == "max"
    assert cells["similarity"]["best"].aggregation == "min"
    assert (cells["pagerank"]["best"].best, cells["pagerank"]["best"].worst) == (2, 2)
    assert (cells["frequency"]["best"].best, cells["frequency"]["best"].worst) == (2, 2)
    assert (cells["most_premises"]["best"].best, cells["most_premises"]["best"].worst) == (1, 2)
    assert cells["most_premises"]["sum"] is None  # n/a, as in the paper


@pytest.mark.neo4j
def test_variants_recompute_the_neo4j_run(report) -> None:
    variants = {v.key: v for v in report.variants}
    for agg in ("min", "avg", "max", "sum"):
        assert variants["main"].tau[agg] == pytest.approx(
            report.table.row("pagerank").cells[agg].tau
        )
    # dropping the dangling mass or the isolated unit 99 from the ground relevance only rescales
    assert variants["dangling_drop"].tau == pytest.approx(variants["main"].tau)
    assert variants["ground_in_arguments"].tau == pytest.approx(variants["main"].tau)
    # split, by hand: A min: 102 1.2833b > 103 1.1417b > 101 1.0667b: only (102, 103) concordant
    assert variants["shared_split"].tau["min"] == pytest.approx((-1 / 3 + 1 + 0) / 3)
    # not divided by f: A min 101 2.0625b > 102 = 103: +T; B y12 > y11: -1; sum: A 103 > 101 > 102
    # (101, 102) C, (101, 103) D, (102, 103) D: -1/3.
    assert variants["raw"].tau["min"] == pytest.approx((T - 1) / 3)
    assert variants["raw"].tau["sum"] == pytest.approx((-1 / 3 - 1) / 3)


@pytest.mark.neo4j
def test_split_and_raw_through_neo4j(db) -> None:
    split = evaluate_argrank(db, FIXTURE, shared="split", seeds=0, variants=False)
    assert split.pagerank["variant"] == "adapted"
    assert split.table.row("pagerank").taus["min"] == approx({A: -1 / 3, B: 1.0, C: 0.0})
    raw = evaluate_argrank(db, FIXTURE, pagerank_norm="none", seeds=0, variants=False)
    assert raw.pagerank["variant"] == "classic"  # pool = classic PageRank with unit weights
    assert raw.table.row("pagerank").taus["sum"] == approx({A: -1 / 3, B: -1.0, C: 0.0})
    assert raw.load["already_loaded"]  # the second load of the same files is a no-op


# -- the command -------------------------------------------------------------------------------


@pytest.mark.neo4j
def test_cli_prints_the_table_and_writes_files(db, neo4j_uri: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["eval", "argrank", "--data", str(FIXTURE), "--no-content", "--seeds", "5"]
    result = CliRunner().invoke(main, [*args, "--out", str(out)], env={"NEO4J_URI": neo4j_uri})
    assert result.exit_code == 0, result.output
    assert "| PageRank | 0.061 | " in result.stdout  # mean min tau (-T + 1 + 0) / 3
    assert "| Approach (paper) |" in result.stdout  # the paper's table printed beside ours
    assert "| Random | n/a |" in result.stdout
    assert (out / "table.md").read_text() == result.stdout
    saved = json.loads((out / "results.json").read_text())
    assert saved["table"]["seeds"] == 5

    result = CliRunner().invoke(
        main, [*args, "--json", "--no-variants", "--out", str(out)], env={"NEO4J_URI": neo4j_uri}
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    rows = {row["key"]: row for row in payload["table"]["rows"]}
    assert rows["pagerank"]["cells"]["sum"]["tau"] == pytest.approx(0.0)
    assert rows["pagerank"]["taus"]["sum"] == {
        "1": pytest.approx(-1.0),
        "10": pytest.approx(1.0),
        "20": pytest.approx(0.0),
    }
    assert -1 <= rows["random"]["cells"]["best"]["tau"] <= 1
    assert set(payload["paper"]) >= {"pagerank", "frequency", "random"}
    assert payload["load"]["already_loaded"] and payload["variants"] == []


@pytest.mark.neo4j
def test_cli_reports_a_missing_file(tmp_path: Path, neo4j_uri: str) -> None:
    (tmp_path / "groundtruth.json").write_text('{"nodes": [], "edges": []}')
    result = CliRunner().invoke(
        main,
        ["eval", "argrank", "--data", str(tmp_path), "--no-content", "--out", str(tmp_path)],
        env={"NEO4J_URI": neo4j_uri},
    )
    assert result.exit_code == 1 and "ground-truth-list.csv" in result.output
