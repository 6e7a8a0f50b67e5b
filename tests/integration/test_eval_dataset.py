"""`argkb eval dataset` and `eval microtexts` on small judged fixtures, and `argkb db clear`, on a
real Neo4j. Expected scores are computed by hand from the fixtures (see each test)."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from argkb.errors import EvaluationError
from argkb.eval.dataset import DatasetFiles, run_corpus
from argkb.eval.harness import HarnessOptions, score_files
from argkb.eval.microtexts import run_microtexts

pytestmark = pytest.mark.neo4j
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "eval"
DATASET = FIXTURES / "dataset"
FILES = DatasetFiles(DATASET / "corpus.jsonl", DATASET / "topics.tsv", DATASET / "qrels.txt")

# BM25 by hand on tests/fixtures/eval/dataset. Every premise of q1's candidates has 4 tokens, so
# only IDF orders them: "energy" is in 2 of the 9 premises, "nuclear" in 3, so
# q1 "nuclear energy" (pro; the con premise pE is filtered out) ranks
#   pA (both terms, grade 1), n3 (energy, 0), pB (nuclear, 2); pD (grade 2) has neither term.
# q2 "school uniforms" (no stance): pG (both terms, grade 1), then the two with "uniforms" only,
#   shorter first: pF (3 tokens, grade 2), pI (5 tokens, 0); u3 (grade 1) has neither term.
# q3 judges nothing relevant: skipped.
IDEAL_Q1 = 2 + 2 / math.log2(3) + 1 / math.log2(4) + 1 / math.log2(5)  # grades 2, 2, 1, 1
IDEAL_Q2 = 2 + 1 / math.log2(3) + 1 / math.log2(4)  # grades 2, 1, 1
NDCG_Q1 = (1 + 0 + 2 / math.log2(4)) / IDEAL_Q1
NDCG_Q2 = (1 + 2 / math.log2(3) + 0) / IDEAL_Q2
BM25 = {
    "ndcg@5": (NDCG_Q1 + NDCG_Q2) / 2,
    "ndcg@10": (NDCG_Q1 + NDCG_Q2) / 2,  # nothing else is retrieved
    "p@5": 2 / 5,  # q1: pA, pB; q2: pG, pF
    "p@10": 2 / 10,
}


def _main() -> Any:
    from argkb.cli import main

    return main


def _uri_args() -> list[str]:
    """An explicit --uri when the test server is named by NEO4J_URI (backends uri/docker)."""
    return ["--uri", os.environ["NEO4J_URI"]] if os.environ.get("NEO4J_URI") else []


def test_dataset_bm25_and_random_on_the_judged_fixture(db, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    options = HarnessOptions(rankers=("bm25", "random"), baselines=False, out=out)
    report = run_corpus(db, FILES, options=options)
    bm25 = {r.name: r for r in report.results}["bm25"].scores
    assert sorted(bm25.per_query) == ["q1", "q2"] and "q3" in bm25.skipped
    for metric, expected in BM25.items():
        assert bm25.mean[metric] == pytest.approx(expected), metric
    assert report.load["arguments"] == 9 and report.load["rejected"] == 0
    runs = json.loads((out / "runs" / "bm25.json").read_text())["queries"]
    assert [c[0] for c in runs["q1"]["clusters"]] == ["pA", "n3", "pB"]
    assert [c[0] for c in runs["q2"]["clusters"]] == ["pG", "pF", "pI"]

    # every seed of the random baseline is written; `eval run` over them gives the same row
    seeds = sorted((out / "runs").glob("random.seed*.trec"))
    assert len(seeds) == 10 and not (out / "runs" / "random.trec").exists()
    random_row = {r.name: r for r in report.results}["random"].scores
    rescored = score_files(out / "topics.tsv", out / "qrels.txt", seeds)
    assert len(rescored) == 1 and rescored[0].replicas == 10
    assert rescored[0].mean == pytest.approx(random_row.mean)

    # --relevant-from 2: only grade-2 documents count for P@k (q1: pB, q2: pF)
    strict = run_corpus(
        db, FILES, options=HarnessOptions(rankers=("bm25",), baselines=False,
                                                out=tmp_path / "strict", relevant_from=2),
    )  # fmt: skip
    assert strict.load["already_loaded"]
    assert strict.results[0].scores.mean["p@5"] == pytest.approx(1 / 5)
    assert strict.results[0].scores.mean["ndcg@5"] == pytest.approx(BM25["ndcg@5"])


def test_eval_dataset_command_and_the_fresh_database_rule(db, tmp_path: Path) -> None:
    args = ["eval", "dataset", "--corpus", str(FILES.corpus), "--topics", str(FILES.topics)]
    args += ["--qrels", str(FILES.qrels), "--ranker", "bm25", "--no-baselines", *_uri_args()]
    result = CliRunner().invoke(_main(), [*args, "--out", str(tmp_path / "cli"), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert [s["tag"] for s in payload["systems"]] == ["bm25"]
    assert payload["systems"][0]["mean"]["ndcg@5"] == pytest.approx(BM25["ndcg@5"])

    # another corpus in the database: refused without --collection, scoped with it
    db.execute_query("CREATE (:Corpus {cid: 'argsme:other'})")
    with pytest.raises(EvaluationError, match="not fresh: it holds argsme:other"):
        run_corpus(db, FILES, options=HarnessOptions(rankers=("bm25",), baselines=False,
                                                           out=tmp_path / "refused"))  # fmt: skip
    scoped = run_corpus(
        db, FILES, collection="jsonl:energy-",
        options=HarnessOptions(rankers=("bm25",), baselines=False, out=tmp_path / "scoped"),
    )  # fmt: skip
    # only the energy debate's premises are candidates: q1 is as before, q2 finds nothing
    q = scoped.results[0].scores.per_query
    assert q["q1"]["ndcg@5"] == pytest.approx(NDCG_Q1) and q["q2"]["ndcg@5"] == 0.0
    # a prefix that selects none of the corpus's sources scored every ranker 0 without a word;
    # it is refused before the corpus is loaded
    with pytest.raises(
        EvaluationError, match=r"'jsonl:nothing-' selects none of corpus.jsonl's sources \(jsonl:"
    ):
        run_corpus(db, FILES, collection="jsonl:nothing-",
                   options=HarnessOptions(rankers=("bm25",), baselines=False,
                                          out=tmp_path / "none"))  # fmt: skip
    db.execute_query("MATCH (c:Corpus {cid: 'argsme:other'}) DELETE c")


def test_microtexts_fixture_at_source_level(db, wipe_db, tmp_path: Path) -> None:
    wipe_db(db)
    report = run_microtexts(
        db, FIXTURES / "microtexts",
        options=HarnessOptions(rankers=("bm25",), baselines=False, out=tmp_path / "mt"),
    )  # fmt: skip
    assert report.load["sources"] == 3
    runs = json.loads((tmp_path / "mt" / "runs" / "bm25.json").read_text())["queries"]
    # q1 "tuition fees should be abolished": the premises with "fees" are in A and B. The
    # English analyzer drops "for" from B's "Fees pay for better equipment.", so both have four
    # terms and the same BM25 score (the order of a tie is the unit keys')
    q1_maps = [c[0] for c in runs["q1"]["clusters"]]
    assert sorted(q1_maps) == ["nodesetA", "nodesetB"]
    assert runs["q1"]["scores"][0] == pytest.approx(runs["q1"]["scores"][1])
    q1 = report.results[0].scores.per_query["q1"]
    grades = {"nodesetA": 3, "nodesetB": 1}  # the map's grade: linear gain, log2 discount
    dcg = grades[q1_maps[0]] + grades[q1_maps[1]] / math.log2(3)
    assert q1["ndcg@5"] == pytest.approx(dcg / (3 + 1 / math.log2(3)))
    assert q1["p@5"] == pytest.approx(2 / 5)
    # q2 "dogs should be leashed": only through the stem ("Leashes prevent accidents." in C)
    assert runs["q2"]["clusters"] == [["nodesetC"]]
    assert report.results[0].scores.per_query["q2"]["ndcg@5"] == pytest.approx(1.0)


def test_db_clear_asks_and_clears(db, wipe_db, tmp_path: Path) -> None:
    from argkb.db.schema import init_schema

    wipe_db(db)
    init_schema(db)
    db.execute_query("CREATE (:Unit {uid: 'clear-me'})-[:PREMISE_OF]->(:Argument {aid: 'x'})")
    main = _main()
    refused = CliRunner().invoke(main, ["db", "clear", *_uri_args()], input="n\n")
    assert refused.exit_code == 1 and "Aborted" in refused.output
    assert "Delete 2 nodes, 1 relationships" in refused.output
    assert db.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 2

    asked = CliRunner().invoke(main, ["db", "clear", "--keep-schema", *_uri_args()], input="y\n")
    assert asked.exit_code == 0, asked.output
    assert db.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 0
    assert db.execute_query("SHOW CONSTRAINTS YIELD name").records  # kept

    db.execute_query("CREATE (:Unit {uid: 'again'})")
    done = CliRunner().invoke(main, ["db", "clear", "--yes", "--json", *_uri_args()])
    assert done.exit_code == 0, done.output
    cleared = json.loads(done.stdout)
    assert cleared["nodes"] == 1 and "unit_uid" in cleared["constraints"]
    assert db.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 0
    assert not db.execute_query("SHOW CONSTRAINTS YIELD name").records
    kinds = {r["type"] for r in db.execute_query("SHOW INDEXES YIELD type").records}
    assert kinds <= {"LOOKUP"}
