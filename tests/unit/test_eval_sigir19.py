"""The SIGIR-19 benchmark without Neo4j: queries, gains, issues, on tests/fixtures/sigir19."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from argkb.eval.scoring import RunScores, score_run
from argkb.eval.sigir19 import build_benchmark, gain, per_issue, top_places, topic_issues
from argkb.eval.trec import Ranking, Run
from argkb.loaders.records import text_key
from argkb.loaders.sigir19 import load_judgements

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "sigir19"
HOMEWORK = (
    "Pupils who spend their evenings on worksheets lose time for sleep, sport and family, and "
    "studies find little gain from homework in primary school."
)


def test_gain_is_relevance_minus_one_floored_at_zero() -> None:
    data = load_judgements(FIXTURE)
    gains = {(j.topic_id, j.aid): gain(j) for rows in data.judgements.values() for j in rows}
    assert gains == {
        (2, "sigir19:101:1"): 3,  # relevance 4
        (2, "sigir19:101:2"): 0,  # -2, spam
        (2, "sigir19:102:3"): 1,  # 2
        (12, "sigir19:101:1"): 2,  # 3
        (12, "sigir19:103:1"): 0,  # 1, not relevant
        (4, "sigir19:201:4"): 2,
        (14, "sigir19:202:1"): 0,
    }


def test_benchmark_queries_qrels_and_issues() -> None:
    data = load_judgements(FIXTURE)
    bench = build_benchmark(data)
    assert [(q.qid, q.text, q.stance, q.collection) for q in bench.queries] == [
        ("2", "abolish homework", None, "sigir19:discussion:"),
        ("4", "school uniforms good idea", None, "sigir19:discussion:"),
        ("12", "homework", None, "sigir19:discussion:"),
        ("14", "school uniforms", None, "sigir19:discussion:"),
    ]
    # the argument judged for topics 2 and 12 keeps each topic's own grade
    assert bench.qrels["2"] == {"sigir19:101:1": 3, "sigir19:101:2": 0, "sigir19:102:3": 1}
    assert bench.qrels["12"] == {"sigir19:101:1": 2, "sigir19:103:1": 0}
    assert bench.clusters is None
    assert bench.notes["issues"] == {"2": "2", "4": "4", "12": "2", "14": "4"}
    assert topic_issues(data) == topic_issues(FIXTURE) == bench.notes["issues"]
    assert bench.notes["grades"] == {"0": 3, "1": 1, "2": 2, "3": 1}
    assert bench.notes["arguments"] == 6 and bench.notes["judgements"] == 7
    # a premise unit maps to its argument id, in any topic's list
    assert bench.to_documents("4", Ranking.from_ids([text_key(HOMEWORK)])).representatives == [
        "sigir19:101:1"
    ]
    assert [q.qid for q in build_benchmark(data, "biased").queries] == ["2", "4"]
    assert [q.qid for q in build_benchmark(data, "neutral").queries] == ["12", "14"]
    with pytest.raises(ValueError, match="'all', 'biased' or 'neutral'"):
        build_benchmark(data, "half")  # type: ignore[arg-type]


def test_ndcg_of_a_run_by_hand_and_per_issue() -> None:
    bench = build_benchmark(load_judgements(FIXTURE))
    run = Run("hand")
    # topic 2: the grade-1 document first, then the grade-3 one: DCG = 1 + 3/log2(3)
    run.rankings["2"] = Ranking.from_ids(["sigir19:102:3", "sigir19:101:1"])
    run.rankings["12"] = Ranking.from_ids(["sigir19:101:1"])  # perfect
    run.rankings["4"] = Ranking.from_ids(["sigir19:103:1"])  # nothing relevant
    scores = score_run(run, bench.qrels, qids=[q.qid for q in bench.queries])
    ideal = 3 + 1 / math.log2(3)
    assert scores.per_query["2"]["ndcg@10"] == pytest.approx((1 + 3 / math.log2(3)) / ideal)
    assert scores.per_query["12"]["ndcg@10"] == pytest.approx(1.0)
    assert scores.per_query["4"]["ndcg@10"] == 0.0
    assert "14" in scores.skipped  # no relevant judgement
    by_issue = per_issue(scores, bench.notes["issues"])
    assert by_issue == pytest.approx({"2": (scores.per_query["2"]["ndcg@10"] + 1.0) / 2, "4": 0})
    empty = RunScores("x", False, {}, {})
    assert per_issue(empty, bench.notes["issues"]) == {}


def test_condensed_ndcg_leaves_out_documents_not_judged_for_the_query() -> None:
    """nDCG' scores the ranking without the documents that are not judged for the query (here
    the argument judged only for the issue's other topic, and an unknown one); nDCG counts
    them as irrelevant. Only the SIGIR-19 benchmark asks for it."""
    bench = build_benchmark(load_judgements(FIXTURE))
    assert bench.condensed
    run = Run("hand")
    # topic 2: the other topic's argument, an unknown one, the grade-1 then the grade-3 one
    run.rankings["2"] = Ranking.from_ids(
        ["sigir19:103:1", "nowhere", "sigir19:102:3", "sigir19:101:1"]
    )
    scores = score_run(run, bench.qrels, qids=["2"], condensed=bench.condensed).per_query["2"]
    ideal = 3 + 1 / math.log2(3)
    assert scores["ndcg'@10"] == pytest.approx((1 + 3 / math.log2(3)) / ideal)
    assert scores["ndcg@10"] == pytest.approx((1 / math.log2(4) + 3 / math.log2(5)) / ideal)
    # a judged irrelevant document stays in the condensed list and takes its place
    run.rankings["2"] = Ranking.from_ids(["sigir19:101:2", "sigir19:101:1"])
    scores = score_run(run, bench.qrels, qids=["2"], condensed=True).per_query["2"]
    assert scores["ndcg'@10"] == pytest.approx(scores["ndcg@10"])
    assert scores["ndcg'@10"] == pytest.approx((3 / math.log2(3)) / ideal)
    assert "ndcg'@10" not in score_run(run, bench.qrels, qids=["2"]).per_query["2"]


def test_top_places_say_what_the_study_judged_each_shown_argument_for() -> None:
    bench = build_benchmark(load_judgements(FIXTURE))
    issues = bench.notes["issues"]
    run = Run("hand")
    # topic 2: relevant, judged not relevant, judged only for topic 12 (same issue), judged
    # only for topic 4 (another issue), then a relevant one beyond k = 4
    run.rankings["2"] = Ranking.from_ids(
        ["sigir19:101:1", "sigir19:101:2", "sigir19:103:1", "sigir19:201:4", "sigir19:102:3"]
    )
    assert top_places(run, bench.qrels, issues, ["2"], k=4) == {
        "relevant": 1,
        "judged_not_relevant": 1,
        "other_query_of_issue": 1,
        "unjudged": 1,
    }
    counts = top_places(run, bench.qrels, issues, ["2", "12"], k=10)  # 12 has no ranking
    assert counts["relevant"] == 2 and sum(counts.values()) == 5
