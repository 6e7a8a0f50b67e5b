"""``argkb eval sigir19`` end to end on tests/fixtures/sigir19: load, baselines, outputs, CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from argkb.eval.harness import HarnessOptions
from argkb.eval.sigir19 import run_sigir19

pytestmark = pytest.mark.neo4j
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "sigir19"


def _main() -> Any:
    from argkb.cli import main

    return main


def test_sigir19_harness_loads_each_argument_once_and_scores_bm25(db, tmp_path: Path) -> None:
    out = tmp_path / "sigir19"
    report = run_sigir19(db, FIXTURE, options=HarnessOptions(["bm25"], baselines=False, out=out))
    # 7 rows, one argument judged twice, one left out (premise = conclusion): 5 arguments
    assert report.load["arguments"] == 5 and report.load["rejected"] == 0
    stored = db.execute_query(
        "MATCH (a:Argument {aid: 'sigir19:101:1'}) RETURN a.topic_ids AS t, a.relevance AS r, "
        "a.relevance_by_topic AS by"
    ).records
    assert [dict(r) for r in stored] == [{"t": "2,12", "r": 4, "by": "2:4,12:3"}]
    [bm25] = report.results
    # topic 14's only judgement is not relevant: skipped; the others are scored
    assert sorted(bm25.scores.per_query) == ["12", "2", "4"]
    assert "14" in bm25.scores.skipped
    # topic 4's only judged argument (gain 2) is found; nDCG@10 = 1 / log2(its rank + 1)
    ranked = bm25.run.rankings["4"].representatives
    rank = ranked.index("sigir19:201:4") + 1
    assert all(doc.startswith("sigir19:") for doc in ranked)  # unit ids mapped to argument ids
    assert bm25.scores.per_query["4"]["ndcg@10"] == pytest.approx(1 / math.log2(rank + 1))
    # the condensed list of topic 4 holds only its judged argument: nDCG' = 1 wherever it was
    assert bm25.scores.per_query["4"]["ndcg'@10"] == pytest.approx(1.0)
    for scores in bm25.scores.per_query.values():  # leaving documents out never lowers it
        assert scores["ndcg'@10"] >= scores["ndcg@10"] - 1e-12
    assert "| nDCG'@10 |" in report.table
    results = json.loads(Path(report.files["results_json"]).read_text())
    assert results["notes"]["issues"] == {"2": "2", "4": "4", "12": "2", "14": "4"}
    assert "sigir19:201:4" in (out / "qrels.txt").read_text()


def test_eval_sigir19_command_json_with_issues(db, tmp_path: Path) -> None:
    args = ["eval", "sigir19", "--data", str(FIXTURE), "--no-baselines", "--ranker", "bm25"]
    result = CliRunner().invoke(_main(), [*args, "--out", str(tmp_path / "a"), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert [s["tag"] for s in payload["systems"]] == ["bm25"]
    assert payload["issues"] == {"2": "2", "4": "4", "12": "2", "14": "4"}
    per_query = payload["systems"][0]["per_query"]
    expected = (per_query["2"]["ndcg@10"] + per_query["12"]["ndcg@10"]) / 2
    assert payload["ndcg@10_by_issue"]["bm25"]["2"] == pytest.approx(expected)
    places = payload["top10_places"]["bm25"]
    # its relevant places are P@10's hits (relevant: gain >= 1), summed over the queries
    hits = sum(round(10 * scores["p@10"]) for scores in per_query.values())
    assert places["relevant"] == hits >= 1
    assert sum(places.values()) <= 10 * len(per_query)
    result = CliRunner().invoke(
        _main(), [*args, "--topics", "neutral", "--out", str(tmp_path / "b")]
    )
    assert result.exit_code == 0, result.output
    assert "nDCG@10 by issue" in result.output and "| 12 |" in result.output
    assert "| bm25 | " in result.output.split("Top-10 places")[1]
    assert "| 2+12 |" not in result.output
