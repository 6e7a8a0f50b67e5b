"""The ArgKP harness end to end on a tiny fixture: load, baselines, a clustering ranker, outputs."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from argkb.eval import harness
from argkb.eval.argkp import build_benchmark, run_argkp
from argkb.eval.harness import Query, Ranking, score_files
from argkb.loaders.argkp import load_split
from argkb.loaders.records import text_key
from argkb.retrieve.baselines import Bm25Ranker, CosineRanker

pytestmark = pytest.mark.neo4j
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "eval" / "argkp"
TOPIC_1_PRO = {"arg_1_0", "arg_1_1", "arg_1_2", "arg_1_3", "arg_1_4"}


class Oracle:
    """Clusters a query's arguments by their ground-truth key point: a perfect clustering ranker."""

    name = "oracle"

    def __init__(self) -> None:
        data = load_split(FIXTURE, "dev")
        self.bench = build_benchmark(data)
        self.texts = {a.arg_id: a.text for group in data.arguments.values() for a in group}

    def rank(self, query: Query, k: int) -> Ranking:
        assert self.bench.clusters is not None
        truth = self.bench.clusters[query.qid]
        groups: dict[str, list[str]] = {}
        for docid, kp in truth.items():
            groups.setdefault(kp, []).append(text_key(self.texts[docid]))
        unmatched = [
            [text_key(self.texts[docid])]
            for docid in self.bench.doc_ids[query.qid].values()
            if docid not in truth
        ]
        return Ranking([*groups.values(), *unmatched][:k])


class FakeEmbedder:
    """Deterministic 384-d bag-of-words vectors: the cosine code path without the model."""

    model_id = "fake-bow"
    dimensions = 384

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in text.lower().replace(".", " ").replace(",", " ").split():
                digest = hashlib.blake2b(word.encode(), digest_size=4).digest()
                out[row, int.from_bytes(digest) % self.dimensions] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


@pytest.fixture()
def oracle() -> Iterator[None]:
    harness.register_ranker("oracle", lambda d, db, e: Oracle(), needs_embeddings=False)
    yield
    del harness.RANKERS["oracle"]


def only(rankers: list[str], **options: Any) -> harness.HarnessOptions:
    """Harness options that score exactly ``rankers`` (no default ranker, no baselines)."""
    return harness.HarnessOptions(rankers=rankers, baselines=False, **options)


def table_row(table: str, name: str) -> list[str]:
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells[0] == name:
            return cells
    raise AssertionError(f"no row {name!r} in\n{table}")


def run_of(out: Path, system: str, qid: str) -> list[str]:
    data = json.loads((out / "runs" / f"{system}.json").read_text())
    return [doc for cluster in data["queries"][qid]["clusters"] for doc in cluster]


def test_argkp_harness_baselines_and_clustering_ranker(db, tmp_path: Path, oracle) -> None:
    out = tmp_path / "argkp"
    names = ["bm25", "bm25-nostance", "random", "random-claim", "oracle"]
    report = run_argkp(db, FIXTURE, options=only(names, out=out))

    assert [r.name for r in report.results] == names
    assert report.load["arguments"] == 18 and not report.load["already_loaded"]
    assert report.embedded == 0  # no ranker needs vectors
    header = [c.strip() for c in report.table.splitlines()[0].strip("|").split("|")]
    assert header[:5] == ["system", "nDCG@5", "nDCG@10", "P@5", "P@10"]
    assert "TaskB@10" in header and "mnDCG@5" in header and "TaskA-avg@5" in header

    # every baseline is a row; the clustering ranker fills Task A, the others show "-"
    bm25 = table_row(report.table, "bm25")
    assert bm25[header.index("TaskA-avg@5")] == "-" and bm25[-1] == "4"
    # random-claim shuffles the query claim's own premises: P@5 is order-free here,
    # (4 + 4 + 3 + 3) relevant of 5 per query, the same for every seed
    random_claim = table_row(report.table, "random-claim (x10)")
    assert random_claim[header.index("P@5")] == "0.7000"
    assert random_claim[header.index("P@10")] == "0.3500"
    assert table_row(report.table, "random (x10)")
    perfect = table_row(report.table, "oracle")
    for column in ("TaskB@5", "TaskB@10", "TaskA-avg@5", "TaskA-min@10", "TaskA-max@5"):
        assert perfect[header.index(column)] == "1.0000", column
    assert table_row(report.table.split("Clustering")[1], "oracle")[1:] == ["1.0000"] * 6

    # stance-aware BM25 keeps the query's stance; the -nostance variant does not
    bm25_1pro = run_of(out, "bm25", "1-pro")
    assert set(bm25_1pro[:2]) == {"arg_1_0", "arg_1_2"}  # the two with "fossil fuels"
    assert "arg_1_5" not in bm25_1pro
    assert "arg_1_5" in run_of(out, "bm25-nostance", "1-pro")[:3]
    assert set(run_of(out, "random-claim.seed0", "1-pro")) == TOPIC_1_PRO

    # results.json has means and per-query scores; the written files re-score identically
    results = json.loads(Path(report.files["results_json"]).read_text())
    systems = {s["tag"]: s for s in results["systems"]}
    assert systems["random"]["replicas"] == 10 and systems["bm25"]["replicas"] == 1
    assert systems["oracle"]["mean"]["ari"] == 1.0 and "ari" not in systems["bm25"]["mean"]
    assert set(systems["bm25"]["per_query"]) == {"1-pro", "1-con", "2-pro", "2-con"}
    assert results["notes"]["merged_duplicate_texts"] == {"arg_2_1": ["arg_2_1", "arg_2_8"]}
    assert Path(report.files["results_md"]).read_text().strip() == report.table
    rescored = score_files(
        out / "topics.tsv",
        out / "qrels.txt",
        [out / "runs" / "bm25.trec", out / "runs" / "oracle.trec"],
        out / "clusters.txt",
    )
    assert rescored[0].mean == pytest.approx(systems["bm25"]["mean"])
    assert rescored[1].mean == pytest.approx(systems["oracle"]["mean"])

    again = run_argkp(db, FIXTURE, options=only(["bm25"], out=tmp_path / "again"))
    assert again.load["already_loaded"]
    assert again.results[0].scores.mean == pytest.approx(systems["bm25"]["mean"])


def test_cosine_baseline_with_stored_vectors(db, tmp_path: Path) -> None:
    report = run_argkp(
        db,
        FIXTURE,
        options=only(
            ["cosine", "cosine-nostance"], out=tmp_path / "cos", make_embedder=FakeEmbedder
        ),
    )
    # 17 distinct premise texts and 2 topic claims of the collection get vectors, once
    assert report.embedded == 19
    stored = db.execute_query(
        "MATCH (u:Unit) WHERE u.embedding_model = 'fake-bow' RETURN count(u) AS n"
    ).records[0]["n"]
    assert stored == 19
    assert table_row(report.table, "cosine")[-1] == "4"
    assert "arg_1_5" not in run_of(tmp_path / "cos", "cosine", "1-pro")
    again = run_argkp(
        db,
        FIXTURE,
        options=only(["cosine"], out=tmp_path / "cos2", make_embedder=FakeEmbedder),
    )
    assert again.embedded == 0

    # without a collection, cosine asks the vector index and BM25 filters the whole graph
    db.execute_query("CALL db.awaitIndexes(120)")
    fossil = Query("x", "fossil fuels", "pro", None)
    cosine = CosineRanker(db, None, FakeEmbedder())  # type: ignore[arg-type]
    top = cosine.rank(fossil, 3)
    assert len(top.clusters) == 3 and top.representatives[0] in {
        text_key("Burning fossil fuels causes climate change."),
        text_key("Air pollution from fossil fuels kills millions."),
    }
    assert text_key("Fossil fuels provide reliable energy.") not in top.representatives
    bm25 = Bm25Ranker(db).rank(fossil, 5)
    assert text_key("Fossil fuels provide reliable energy.") not in bm25.representatives
    assert Bm25Ranker(db).rank(Query("y", '(fossil) AND "fuels"?: \\/', None, None), 2).clusters
    assert Bm25Ranker(db).rank(Query("z", "  ", None, None), 2).clusters == ()


def test_eval_argkp_command(db, tmp_path: Path) -> None:
    out = tmp_path / "cli"
    args = ["eval", "argkp", "--data", str(FIXTURE), "--no-baselines", "--ranker", "bm25"]
    result = CliRunner().invoke(_main(), [*args, "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    payload: dict[str, Any] = json.loads(result.stdout)
    assert [s["tag"] for s in payload["systems"]] == ["bm25"]
    assert (out / "results.md").is_file() and (out / "runs" / "bm25.trec").is_file()
    result = CliRunner().invoke(_main(), [*args, "--ranker", "nope", "--out", str(out)])
    assert result.exit_code == 2 and "unknown ranker 'nope'" in result.output  # a usage error


@pytest.mark.slow
def test_cosine_with_the_default_model(db, tmp_path: Path) -> None:
    from argkb.embed.model import Embedder

    report = run_argkp(
        db, FIXTURE, options=only(["cosine"], out=tmp_path / "model", make_embedder=Embedder)
    )
    row = table_row(report.table, "cosine")
    assert all(0.0 <= float(cell) <= 1.0 for cell in row[1:-1])
    # the topic and its own arguments about fossil fuels come first for the pro query
    assert run_of(tmp_path / "model", "cosine", "1-pro")[0] in TOPIC_1_PRO


def _main() -> Any:
    from argkb.cli import main

    return main
