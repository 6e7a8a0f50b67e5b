"""Scoring runs against hand-computed values, the ranker registry, benchmark construction."""

from __future__ import annotations

import json
from math import log2
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.eval import harness
from argkb.eval.harness import (
    Benchmark,
    EvalError,
    Query,
    Ranking,
    RunScores,
    average_scores,
    make_rankers,
    markdown_tables,
    register_ranker,
    score_files,
    score_ranking,
)
from argkb.retrieve.lucene import lucene_query

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "eval"
TREC = FIXTURES / "trec"

# Hand computation for tests/fixtures/eval/trec (q3 has no qrels and is skipped).
# q1 grades: d1 2, d2 1, d3 1, d4 0, d5 1; clusters A={d1} (rel 2), B={d2,d3} (1), C={d5} (1).
IDEAL_Q1 = 2 + 1 / log2(3) + 1 / log2(4) + 1 / log2(5)  # standard discount, grades 2,1,1,1
IDEAL_B = 2 + 1 + 1 / log2(3)  # Dumani's discount over the clusters' relevances 2,1,1
IDEAL_M = 2 + 1 / log2(3) + 1 / log2(4)  # standard discount over 2,1,1

# run.trec, q1: d1 d3 d2 d4 d6 d5 -> grades 2 1 1 0 0 1; novelty gains 2 1 0 0 0 1
FLAT_Q1 = {
    "ndcg@5": (2 + 1 / log2(3) + 1 / log2(4)) / IDEAL_Q1,
    "ndcg@10": (2 + 1 / log2(3) + 1 / log2(4) + 1 / log2(7)) / IDEAL_Q1,
    "p@5": 3 / 5,
    "p@10": 4 / 10,
    "task_b@5": (2 + 1) / IDEAL_B,
    "task_b@10": (2 + 1 + 1 / log2(6)) / IDEAL_B,
    "mndcg@5": (2 + 1 / log2(3)) / IDEAL_M,
    "mndcg@10": (2 + 1 / log2(3) + 1 / log2(7)) / IDEAL_M,
}
# q2: e2 e1 -> grades 0 1, one cluster X = {e1}
FLAT_Q2 = {
    "ndcg@5": 1 / log2(3),
    "ndcg@10": 1 / log2(3),
    "p@5": 1 / 5,
    "p@10": 1 / 10,
    "task_b@5": 1.0,  # rank 2 is not discounted by Dumani et al.
    "task_b@10": 1.0,
    "mndcg@5": 1 / log2(3),
    "mndcg@10": 1 / log2(3),
}
# run_clustered.trec, q1: clusters (d3 d2) (d1 d5) (d4); shown list d3 d1 d4 -> grades 1 2 0.
# Task A lists: B then (A: 2 | C: 1) then 0 -> DCG 3 or 2 with Dumani's discount.
CLUSTERED_Q1 = {
    "ndcg@5": (1 + 2 / log2(3)) / IDEAL_Q1,
    "p@5": 2 / 5,
    "task_b@5": (1 + 2) / IDEAL_B,
    "mndcg@5": (1 + 2 / log2(3)) / IDEAL_M,
    "task_a_avg@5": 2.5 / IDEAL_B,
    "task_a_min@5": 2 / IDEAL_B,
    "task_a_max@5": 3 / IDEAL_B,
    "task_a_avg@10": 2.5 / IDEAL_B,
    # partition of {d1:A, d2:B, d3:B, d5:C} into {d2,d3}, {d1,d5}: ARI 4/7, NMI ln2/(1.25 ln2)
    "ari": 4 / 7,
    "nmi": 0.8,
    "bcubed_p": 0.75,
    "bcubed_r": 1.0,
    "bcubed_f1": 2 * 0.75 / 1.75,
    "coverage": 1.0,
}


def test_flat_run_scores_by_hand() -> None:
    [result] = score_files(
        TREC / "topics.tsv", TREC / "qrels.txt", [TREC / "run.trec"], TREC / "clusters.txt"
    )
    assert result.tag == "flat" and not result.clustered
    assert set(result.per_query) == {"q1", "q2"}
    assert result.skipped == {"q3": "no relevant document in the qrels"}
    for metric, value in FLAT_Q1.items():
        assert result.per_query["q1"][metric] == pytest.approx(value), metric
    for metric, value in FLAT_Q2.items():
        assert result.per_query["q2"][metric] == pytest.approx(value), metric
        assert result.mean[metric] == pytest.approx((FLAT_Q1[metric] + value) / 2), metric
    assert not any(m.startswith("task_a") or m == "ari" for m in result.mean)


def test_clustered_run_scores_by_hand() -> None:
    results = score_files(
        TREC / "topics.tsv",
        TREC / "qrels.txt",
        [TREC / "run_clustered.trec", TREC / "run_clustered.json"],
        TREC / "clusters.txt",
    )
    for result in results:
        assert result.clustered
        for metric, value in CLUSTERED_Q1.items():
            assert result.per_query["q1"][metric] == pytest.approx(value), (result.tag, metric)
        q2 = result.per_query["q2"]  # e1 (X) first: every metric 1 but P@k
        assert q2["ndcg@5"] == q2["task_b@10"] == q2["task_a_min@5"] == q2["ari"] == 1.0
    assert results[0].per_query == results[1].per_query  # TREC and JSON forms agree


def test_without_clusters_only_ndcg_and_precision() -> None:
    [result] = score_files(TREC / "topics.tsv", TREC / "qrels.txt", [TREC / "run_clustered.trec"])
    assert set(result.mean) == {"ndcg@5", "ndcg@10", "p@5", "p@10"}
    assert result.per_query["q1"]["ndcg@5"] == pytest.approx(CLUSTERED_Q1["ndcg@5"])


def test_dumani_worked_example() -> None:
    """Dumani et al., ECIR 2020, sec. 6.2: gains 2 1 0 0 0 0 0 1 against 2 1 1 give 0.92."""
    judged = {"p1": 2.0, "p2": 2.0, "p3": 1.0, "p4": 1.0, "p5": 1.0}
    clusters = {"p1": "G1", "p2": "G1", "p3": "G2", "p4": "G2", "p5": "G3"}
    ranking = Ranking.from_ids(["p1", "p3", "p2", "p4", "x1", "x2", "x3", "p5"])
    scores = score_ranking(ranking, judged, clusters, ks=(10,))
    assert scores["task_b@10"] == pytest.approx((10 / 3) / (2 + 1 + 1 / log2(3)))
    assert round(scores["task_b@10"], 2) == 0.92


def test_missing_query_scores_zero_and_repeats_gain_once() -> None:
    run = harness.Run("r", {"q1": Ranking.from_ids(["d1", "d1", "d2"]), "zz": Ranking(())})
    result = harness.score_run(run, {"q1": {"d1": 1, "d2": 1}, "q2": {"e": 1}})
    assert result.missing == ["q2"] and result.per_query["q2"]["ndcg@10"] == 0.0
    assert result.unknown == ["zz"]
    assert result.per_query["q1"]["ndcg@5"] == pytest.approx(1.0)  # the repeat is dropped


def test_relevant_document_outside_every_cluster_is_its_own_cluster() -> None:
    scores = score_ranking(Ranking.from_ids(["b", "a"]), {"a": 1.0, "b": 1.0}, {"a": "K"}, ks=(5,))
    assert scores["task_b@5"] == pytest.approx(1.0)  # two nuggets, both found


def test_average_over_replicas_and_tables() -> None:
    a = RunScores("rnd", False, {"q": {"ndcg@5": 0.2, "p@5": 0.4}}, {"ndcg@5": 0.2, "p@5": 0.4})
    b = RunScores("rnd", False, {"q": {"ndcg@5": 0.6, "p@5": 0.0}}, {"ndcg@5": 0.6, "p@5": 0.0})
    mean = average_scores([a, b])
    assert mean.replicas == 2 and mean.mean == pytest.approx({"ndcg@5": 0.4, "p@5": 0.2})
    other = RunScores(
        "clus",
        True,
        {},
        {
            "ndcg@5": 1.0,
            "task_a_avg@5": 0.5,
            **dict.fromkeys(("ari", "nmi", "bcubed_p", "bcubed_r", "bcubed_f1", "coverage"), 1.0),
        },
    )
    table = markdown_tables([mean, other], ks=(5,))
    lines = table.splitlines()
    assert lines[0] == "| system | nDCG@5 | P@5 | TaskA-avg@5 | queries |"
    assert lines[2] == "| rnd (x2) | 0.4000 | 0.2000 | - | 1 |"
    assert lines[3] == "| clus | 1.0000 | - | 0.5000 | 0 |"
    assert "| system | ARI | NMI | B3-P | B3-R | B3-F1 | coverage |" in table


def test_lucene_query_escapes_syntax() -> None:
    assert lucene_query('Is "x" (a+b) || c? AND d: NOT e/f') == (
        r"Is \"x\" \(a\+b\) \|\| c\? and d\: not e\/f"
    )
    assert lucene_query("  \n ") == ""
    assert lucene_query("ANDROID ORder") == "ANDROID ORder"  # only whole operator words


# -- registry --------------------------------------------------------------------------------


class _Fixed:
    def __init__(self, name: str) -> None:
        self.name = name

    def rank(self, query: Query, k: int) -> Ranking:
        return Ranking.from_ids(["a"])


def fixed_factory(driver: object, database: object, embedder: object) -> _Fixed:
    return _Fixed("fixed")


def test_registry_names_callables_and_module_paths() -> None:
    register_ranker("test-fixed", fixed_factory, needs_embeddings=False)
    try:
        [ranker] = make_rankers("test-fixed", None, None, None)  # type: ignore[arg-type]
        assert ranker.name == "fixed"
        [ranker] = make_rankers(f"{__name__}:fixed_factory", None, None, None)  # type: ignore[arg-type]
        assert isinstance(ranker, harness.Ranker)
        replicas = make_rankers("random", object(), None, None)  # type: ignore[arg-type]
        assert len(replicas) == 10 and {r.seed for r in replicas} == set(range(10))  # type: ignore[attr-defined]
    finally:
        del harness.RANKERS["test-fixed"]
    with pytest.raises(EvalError, match="unknown ranker 'nope'; known: bm25"):
        make_rankers("nope", None, None, None)  # type: ignore[arg-type]
    with pytest.raises(EvalError, match="cannot load ranker factory"):
        make_rankers("argkb.nowhere:thing", None, None, None)  # type: ignore[arg-type]
    not_a_ranker: Any = object()  # the factory contract broken on purpose
    register_ranker("test-bad", lambda d, db, e: not_a_ranker, needs_embeddings=False)
    try:
        with pytest.raises(EvalError, match="returned no Ranker"):
            make_rankers("test-bad", None, None, None)  # type: ignore[arg-type]
    finally:
        del harness.RANKERS["test-bad"]


def test_benchmark_maps_units_to_documents() -> None:
    bench = Benchmark(
        "b",
        [Query("q", "t")],
        {"q": {"d1": 1.0}},
        None,
        doc_ids={"q": {"u1": "d1", "u2": "d2"}},
        fallback_doc_ids={"u1": "other", "u3": "d3"},
    )
    mapped = bench.to_documents("q", Ranking([["u1", "u3"], ["u9"], ["u2", "u1"]]))
    assert mapped.clusters == (("d1", "d3"), ("u9",), ("d2",))


# -- the two datasets, without Neo4j ---------------------------------------------------------


def test_argkp_benchmark_from_fixture() -> None:
    from argkb.eval.argkp import build_benchmark
    from argkb.loaders.argkp import load_split
    from argkb.loaders.records import text_key

    bench = build_benchmark(load_split(FIXTURES / "argkp", "dev"))
    assert [q.qid for q in bench.queries] == ["1-pro", "1-con", "2-pro", "2-con"]
    assert bench.queries[0] == Query("1-pro", "We should ban fossil fuels", "pro", "argkp:dev:")
    assert bench.clusters is not None
    # arg_1_3 matches kp_1_1 and kp_1_0: it goes to the first in key-point file order
    assert bench.clusters["1-pro"] == {
        "arg_1_0": "kp_1_0",
        "arg_1_1": "kp_1_0",
        "arg_1_2": "kp_1_1",
        "arg_1_3": "kp_1_0",
    }
    assert bench.notes["matching_several_key_points"] == 1
    # the topic's arguments of both stances are judged; unmatched and opposite ones are 0
    assert bench.qrels["1-pro"]["arg_1_4"] == 0.0 and bench.qrels["1-pro"]["arg_1_5"] == 0.0
    assert len(bench.qrels["1-pro"]) == 9
    # arg_2_8 has arg_2_1's text up to punctuation: one document named arg_2_1
    assert "arg_2_8" not in bench.qrels["2-pro"]
    assert bench.notes["merged_duplicate_texts"] == {"arg_2_1": ["arg_2_1", "arg_2_8"]}
    uid = text_key("Medical marijuana relieves suffering!")
    assert bench.doc_ids["2-pro"][uid] == "arg_2_1"
    ranking = bench.to_documents(
        "1-con", Ranking.from_ids([text_key("Renewables are cheaper now.")])
    )
    assert ranking.representatives == ["arg_1_4"]  # another group's argument, via the fallback


def test_argquality_grades_and_benchmark() -> None:
    from argkb.eval.argquality import build_benchmark, relevance_grade
    from argkb.loaders.argquality import load_judgements

    data = load_judgements(Path(__file__).resolve().parents[1] / "fixtures" / "argquality")
    for premises in data.premises.values():
        for p in premises:
            expected = (
                0 if not p.is_argument or p.relevance < -0.5 else (1 if p.relevance < 0.5 else 2)
            )
            assert relevance_grade(p) == expected
    long = build_benchmark(data, "long")
    short = build_benchmark(data, "short")
    assert [q.qid for q in long.queries] == [str(t) for t in sorted(data.topics)]
    first = data.topics[min(data.topics)]
    assert long.queries[0].text == " ".join(first.long_query.split())
    assert short.queries[0].text == first.short_query
    assert all(q.stance is None and q.collection == "argquality:discussion:" for q in long.queries)
    assert long.clusters is None
    with pytest.raises(ValueError, match="long' or 'short"):
        build_benchmark(data, "medium")  # type: ignore[arg-type]


# -- the command -----------------------------------------------------------------------------


def test_eval_run_command_table_json_and_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    args = [
        "eval",
        "run",
        "--topics",
        str(TREC / "topics.tsv"),
        "--qrels",
        str(TREC / "qrels.txt"),
        "--clusters",
        str(TREC / "clusters.txt"),
    ]
    result = runner.invoke(
        main, [*args, "--run", str(TREC / "run.trec"), "--run", str(TREC / "run_clustered.trec")]
    )
    assert result.exit_code == 0, result.output
    assert "| flat |" in result.output and "| clus |" in result.output
    assert "TaskA-avg@5" in result.output and "| system | ARI |" in result.output
    result = runner.invoke(main, [*args, "--run", str(TREC / "run.trec"), "--json"])
    payload = json.loads(result.stdout)
    [run] = payload["runs"]
    assert run["per_query"]["q1"]["p@5"] == pytest.approx(0.6)
    assert run["skipped"] == {"q3": "no relevant document in the qrels"}
    bad = tmp_path / "bad.trec"
    bad.write_text("q1 Q0 d1 1 1.0 t\nq1 Q0 d2 two 0.5 t\n")
    result = runner.invoke(main, [*args, "--run", str(bad)])
    assert result.exit_code == 1
    assert f"Error: {bad}:line 2: rank is not an integer: 'two'" in result.output


def _eval_run(*extra: str, clusters: Path | None = None) -> Any:
    args = ["eval", "run", "--topics", str(TREC / "topics.tsv"), "--qrels", str(TREC / "qrels.txt")]
    args += ["--clusters", str(clusters)] if clusters is not None else []
    return CliRunner().invoke(main, [*args, *extra])


def test_a_run_of_another_benchmark_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.trec"
    other.write_text("zz Q0 d1 1 1.0 t\n", encoding="utf-8")  # it scored 0.0 with exit 0
    result = _eval_run("--run", str(other))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{other}: no query of the run is in" in result.output


def test_cluster_typos_are_warned_about_and_clusters_of_other_topics_refused(
    tmp_path: Path,
) -> None:
    typos = tmp_path / "typos.txt"
    typos.write_text("q1 d1 A\nq1 dX A\nqZ d2 B\n", encoding="utf-8")
    result = _eval_run("--run", str(TREC / "run.trec"), clusters=typos)
    assert result.exit_code == 0, result.output
    assert "typos.txt: 1 cluster query id(s) not in the topics, ignored: qZ" in result.stderr
    assert "typos.txt: 1 clustered document(s) not judged for their query" in result.stderr
    assert "q1 dX" in result.stderr
    clean = _eval_run("--run", str(TREC / "run.trec"), clusters=TREC / "clusters.txt")
    assert clean.exit_code == 0 and clean.stderr.count("cluster") == 0
    other = tmp_path / "other.txt"
    other.write_text("qZ d1 A\n", encoding="utf-8")
    result = _eval_run("--run", str(TREC / "run.trec"), clusters=other)
    assert result.exit_code == 1
    assert "other.txt: no cluster is for a query of the topics" in result.output
