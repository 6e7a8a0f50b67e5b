"""The judged-corpus and microtexts benchmarks without Neo4j: document names, grades, mappings,
and the shared harness options (default ranker, --relevant-from, replicated runs)."""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from argkb.errors import EvaluationError
from argkb.eval import trec
from argkb.eval.dataset import build_benchmark, document_names
from argkb.eval.harness import (
    DEFAULT_RANKER,
    Benchmark,
    EvalError,
    HarnessOptions,
    Ranking,
    Run,
    score_files,
    score_ranking,
    score_run,
)
from argkb.eval.microtexts import (
    MAX_RANK,
    find_files,
    query_text,
    read_judgements,
    unit_maps,
)
from argkb.eval.microtexts import (
    build_benchmark as build_microtexts,
)
from argkb.loaders.records import text_key

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "eval"
DATASET = FIXTURES / "dataset"
MICRO = FIXTURES / "microtexts"


# -- shared options ------------------------------------------------------------------------------


def test_default_ranker_is_scored_without_a_choice() -> None:
    baselines = ("bm25", "cosine", "random")
    assert HarnessOptions().ranker_names(baselines) == [DEFAULT_RANKER, *baselines]
    chosen = HarnessOptions(rankers=("coreset", "bm25"))
    assert chosen.ranker_names(baselines) == ["coreset", "bm25", "cosine", "random"]
    assert HarnessOptions(rankers=("bm25",), baselines=False).ranker_names(baselines) == ["bm25"]
    assert EvalError is EvaluationError  # one error class, the old name kept


def test_relevant_from_changes_precision_only() -> None:
    judged = {"a": 1.0, "b": 2.0, "c": 0.0}
    ranking = Ranking.from_ids(["a", "c", "b"])
    default = score_ranking(ranking, judged, ks=(5,))
    strict = score_ranking(ranking, judged, ks=(5,), relevant_from=2)
    assert default["p@5"] == pytest.approx(2 / 5)
    assert strict["p@5"] == pytest.approx(1 / 5)
    assert (
        strict["ndcg@5"]
        == default["ndcg@5"]
        == pytest.approx((1 + 2 / math.log2(4)) / (2 + 1 / math.log2(3)))
    )


def test_runs_sharing_a_tag_are_averaged(tmp_path: Path) -> None:
    qrels = {"q": {"a": 1.0, "b": 0.0}}
    trec.write_topics(tmp_path / "topics.tsv", [trec.Query("q", "text")])
    trec.write_qrels(tmp_path / "qrels.txt", qrels)
    runs = []
    for seed, order in enumerate((["a", "b"], ["b", "a"])):
        path = tmp_path / f"random.seed{seed}.trec"
        trec.write_run(path, Run("random", {"q": Ranking.from_ids(order)}))
        runs.append(path)
    other = tmp_path / "bm25.trec"
    trec.write_run(other, Run("bm25", {"q": Ranking.from_ids(["a"])}))
    results = score_files(tmp_path / "topics.tsv", tmp_path / "qrels.txt", [*runs, other])
    assert [(r.tag, r.replicas) for r in results] == [("random", 2), ("bm25", 1)]
    # seed 0 puts the relevant document first (P@5 = 1/5), seed 1 second (also 1/5);
    # nDCG@5 is 1 and 1/log2(3): the average of the two
    assert results[0].mean["ndcg@5"] == pytest.approx((1 + 1 / math.log2(3)) / 2)
    assert results[0].mean["p@5"] == pytest.approx(0.2)


# -- a judged JSONL corpus -----------------------------------------------------------------------


def test_document_names_premise_ids_then_argument_ids() -> None:
    names = document_names(DATASET / "corpus.jsonl")
    assert names["id:pA"] == ["pA", "n1"]  # a line with both stances: its own id, not n1:pro
    assert names["id:pE"] == ["pE", "n1"]
    assert names[text_key("Energy prices would fall.")] == ["n3"]  # no premise id
    assert names[text_key("Students enjoy their lessons.")] == ["u3"]
    assert len(names) == 9


def _dataset_benchmark(qrels: trec.Qrels) -> Benchmark:
    queries = trec.read_topics(DATASET / "topics.tsv")
    return build_benchmark(
        "t", queries, qrels, None, document_names(DATASET / "corpus.jsonl"), qrels_path="q.txt"
    )


def test_dataset_benchmark_maps_units_to_judged_names() -> None:
    qrels = trec.read_qrels(DATASET / "qrels.txt")
    bench = _dataset_benchmark(qrels)
    ranking = Ranking.from_ids(["id:pA", text_key("Energy prices would fall."), "id:pB", "x"])
    assert bench.to_documents("q1", ranking).representatives == ["pA", "n3", "pB", "x"]
    # the same premise judged for two topics keeps its name in both
    assert bench.to_documents("q2", Ranking.from_ids(["id:pB"])).representatives == ["pB"]
    # a query that judges the argument id of a premise that has its own id gets the argument id
    qrels["q1"]["n2"] = 2.0
    del qrels["q1"]["pB"]
    again = _dataset_benchmark(qrels)
    assert again.to_documents("q1", Ranking.from_ids(["id:pB"])).representatives == ["n2"]
    assert again.to_documents("q2", Ranking.from_ids(["id:pB"])).representatives == ["pB"]


def test_dataset_benchmark_refuses_unknown_docids() -> None:
    qrels = {"q1": {"pA": 1.0, "nope": 1.0, "typo": 2.0}}
    with pytest.raises(EvaluationError, match=r"q\.txt: 2 judged docid\(s\).*: nope, typo"):
        _dataset_benchmark(qrels)
    with pytest.raises(EvaluationError, match="no judged query is in the topics"):
        _dataset_benchmark({"other": {"pA": 1.0}})


def test_eval_dataset_reports_a_bad_qrels_line_without_traceback(tmp_path: Path) -> None:
    from argkb.cli import main

    bad = tmp_path / "qrels.txt"
    bad.write_text("q1 0 pA\n", encoding="utf-8")
    args = ["eval", "dataset", "--corpus", str(DATASET / "corpus.jsonl")]
    args += ["--topics", str(DATASET / "topics.tsv"), "--qrels", str(bad), "--ranker", "bm25"]
    result = CliRunner().invoke(main, [*args, "--no-baselines", "--out", str(tmp_path / "o")])
    assert result.exit_code == 1
    assert "qrels.txt:line 1: expected 4 columns" in result.output
    assert "Traceback" not in result.output


def _dataset_cli(corpus: Path) -> str:
    """``argkb eval dataset`` on ``corpus`` and the fixture's topics and qrels, against a closed
    port: its output (a file check that passes reaches the connection error)."""
    from argkb.cli import main

    args = ["eval", "dataset", "--corpus", str(corpus), "--uri", "bolt://127.0.0.1:1"]
    args += ["--topics", str(DATASET / "topics.tsv"), "--qrels", str(DATASET / "qrels.txt")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and "Traceback" not in result.output
    return result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"id": "n1", "conclusion": "Cut', r"c\.jsonl:1: malformed JSON"),
        (b"", r"c\.jsonl: no records: the file is empty"),
        (b'{"id": "n1", "conclusion": "\xff"}\n', r"c\.jsonl:1: not UTF-8"),
        (b'{"id": "n1", "premises": [{"text": "t", "stance": "pro", "id": "pA"}]}\n'
         b'{"id": "n2"}\n', r"c\.jsonl:1: field 'conclusion': .* \(and 1 more\)"),
    ],
)  # fmt: skip
def test_a_corpus_without_a_usable_line_is_blamed_not_the_qrels(
    content: bytes, message: str, tmp_path: Path
) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_bytes(content)
    output = _dataset_cli(corpus)
    assert re.search(message, output), output
    assert "qrels" not in output


def test_unknown_judged_ids_name_the_rejected_corpus_lines(tmp_path: Path) -> None:
    # the line holding pA and pE is cut: the qrels judge them, and the error says why they are
    # missing
    lines = (DATASET / "corpus.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(lines[0][:40] + "\n" + "".join(lines[1:]), encoding="utf-8")
    output = _dataset_cli(corpus)
    assert "judged docid(s) are neither" in output
    assert (
        "; 1 corpus line(s) rejected, first: " in output and "c.jsonl:1: malformed JSON" in output
    )


# -- microtexts --------------------------------------------------------------------------------


def test_microtexts_files_and_grades() -> None:
    files = find_files(MICRO)
    assert [p.stem for p in files.judgements] == ["q1", "q2"]
    maps = {"nodesetA", "nodesetB", "nodesetC"}
    grades = read_judgements(files.judgements[0], maps)
    # rank 1 is the most relevant: gain MAX_RANK + 1 - rank, other maps 0
    assert MAX_RANK == 3
    assert grades == {"nodesetA": 3.0, "nodesetB": 1.0, "nodesetC": 0.0}


def test_microtexts_query_text_claim_and_graph() -> None:
    files = find_files(MICRO)
    # q1 flags no major claim: the I-node that is no premise (the root)
    assert query_text(files.queries["q1"]) == "tuition fees should be abolished"
    assert query_text(files.queries["q1"], "graph") == (
        "tuition fees should be abolished education should be free"
    )
    assert query_text(files.queries["q2"]) == "dogs should be leashed"  # flagged majorClaim


def test_microtexts_units_to_maps_first_occurrence() -> None:
    files = find_files(MICRO)
    table = unit_maps(files.cases)
    right = text_key("Education is a basic right.")
    assert table[right] == ("nodesetA", "nodesetB")  # one text, a premise in two maps
    assert table[text_key("Fees deter poor students.")] == ("nodesetA",)
    assert text_key("Tuition fees should be abolished.") not in table  # claims are not ranked

    bench = build_microtexts(files)
    assert [q.text for q in bench.queries] == [
        "tuition fees should be abolished",
        "dogs should be leashed",
    ]
    assert bench.qrels["q2"] == {"nodesetA": 0.0, "nodesetB": 0.0, "nodesetC": 3.0}
    units = Ranking(
        [
            [text_key("Fees deter poor students.")],
            [text_key("Leashes prevent accidents.")],
            [right, text_key("Fees pay for better equipment.")],  # a cluster: its representative
            [text_key("Fees pay for better equipment.")],
        ]
    )
    maps = bench.to_documents("q1", units)
    assert maps.representatives == ["nodesetA", "nodesetC", "nodesetB"]
    scores = score_run(Run("x", {"q1": maps}), {"q1": bench.qrels["q1"]}).mean
    # grades 3, 0, 1 against the ideal 3, 1
    assert scores["ndcg@5"] == pytest.approx((3 + 1 / math.log2(4)) / (3 + 1 / math.log2(3)))
    assert scores["p@5"] == pytest.approx(2 / 5)


def _broken(tmp_path: Path, judgement: dict[str, object]) -> Path:
    root = tmp_path / "micro"
    shutil.copytree(MICRO, root)
    (root / "benchmark" / "microtexts" / "q1.json").write_text(json.dumps(judgement))
    return root


@pytest.mark.parametrize(
    ("judgement", "message"),
    [
        ({"candidates": ["nodesetA.json"], "rankings": {"nodesetA.json": 4}}, "rank must be 1..3"),
        ({"candidates": ["nodesetA.json"], "rankings": {}}, "candidate 'nodesetA.json' has no"),
        ({"candidates": [], "rankings": {"nodesetZ.json": 1}}, "not in the case base"),
        ({"candidates": []}, "not a judgement file"),
    ],
)
def test_microtexts_bad_judgements_name_file_and_map(
    tmp_path: Path, judgement: dict[str, object], message: str
) -> None:
    root = _broken(tmp_path, judgement)
    with pytest.raises(EvaluationError, match=message) as caught:
        build_microtexts(find_files(root))
    assert "q1.json" in str(caught.value)


def test_microtexts_missing_parts(tmp_path: Path) -> None:
    with pytest.raises(EvaluationError, match="no benchmark"):
        find_files(tmp_path)
    root = _broken(tmp_path, {"candidates": [], "rankings": {}})
    (root / "queries" / "english" / "microtexts-annotated" / "q2.json").unlink()
    with pytest.raises(EvaluationError, match=r"need exactly one query q2\.json"):
        find_files(root)


def test_dataset_clusters_are_checked_as_eval_run_checks_them(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from argkb.eval.dataset import DatasetFiles, prepare_benchmark

    clusters = tmp_path / "clusters.txt"
    clusters.write_text("q1 pA k1\nq1 pZ k1\n", encoding="utf-8")  # pZ: judged nowhere
    files = DatasetFiles(DATASET / "corpus.jsonl", DATASET / "topics.tsv",
                         DATASET / "qrels.txt", clusters)  # fmt: skip
    prepare_benchmark(files)
    assert "1 clustered document(s) not judged for their query, so they gain nothing: q1 pZ" in (
        caplog.text
    )
    clusters.write_text("qZ pA k1\n", encoding="utf-8")
    with pytest.raises(EvaluationError, match="no cluster is for a query of the topics"):
        prepare_benchmark(files)
