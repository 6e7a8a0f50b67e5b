"""Fit and score candidate default rankers offline, on pools recorded from real benchmark runs.

    python -m bench ranker_study --study /tmp/study --data ../shared/data

Each benchmark is first run once with ``argkb eval ... --ranker bench.study_recorder:recorder``
(see that module): the harness loads, embeds and clusters it and scores BM25 and cosine, and the
recorder keeps every query's candidate pool with each route's evidence. Here every ranker variant
re-ranks those pools and is scored with the harness's own metrics (``argkb.eval.harness
.evaluate``), so a variant's score is what ``argkb eval`` would report for it on that database.

Fitting protocol: leave one benchmark out. A variant's free parameters are chosen on the other
benchmarks (the mean of their primary metrics, each benchmark weighing the same) and scored on
the held-out one; ArgQuality long and short count as one benchmark (same documents). The
argumentativeness prior is trained on "Is Argument?" of Webis-ArgQuality-20 and SIGIR-19 dev
with topic-group folds: a query is scored with a prior that never saw its topic's (its issue's)
rows, nor texts of the other benchmark that are the same.
"""

from __future__ import annotations

import argparse
import itertools
import json
import pickle
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

# benchmark name -> (metric, group for leave-one-benchmark-out)
BENCHMARKS = {
    "argkp-dev": ("task_b@10", "argkp"),
    "aq-long": ("ndcg@10", "argquality"),
    "aq-short": ("ndcg@10", "argquality"),
    "microtexts": ("ndcg@10", "microtexts"),
    "sigir19-dev": ("ndcg@10", "sigir19"),
}
# recordings that stand in for a benchmark kept outside the repository, scored but never fitted
# on by bench/linear_study.py: ArgKP train (48 queries on 24 topics no fusion weight was fitted
# on) for the kept ArgKP test topics; its group is ArgKP's, so it is left out with ArgKP dev
STAND_INS = {"argkp-train": ("task_b@10", "argkp")}


# -- benchmarks ---------------------------------------------------------------------------------


def spec(name: str) -> tuple[str, str]:
    """``(metric, group)`` of a recording: a benchmark name, optionally with a ``-cutX``
    suffix (the same benchmark recorded with premise clusters cut at X)."""
    base = name.split("-cut")[0]
    return BENCHMARKS[base] if base in BENCHMARKS else STAND_INS[base]


def build(name: str, data: Path) -> Any:
    from argkb.eval import argkp, argquality, microtexts, sigir19
    from argkb.loaders import argkp as argkp_loader
    from argkb.loaders import argquality as argquality_loader
    from argkb.loaders import sigir19 as sigir19_loader

    if name in ("argkp-dev", "argkp-train"):
        split = name.split("-")[1]
        return argkp.build_benchmark(argkp_loader.load_split(data / "argkp-2021", split))
    if name in ("aq-long", "aq-short"):
        judged = argquality_loader.load_judgements(data / "webis-argquality-20")
        return argquality.build_benchmark(judged, "long" if name == "aq-long" else "short")
    if name == "microtexts":
        return microtexts.build_benchmark(microtexts.find_files(data / "microtexts-aif"))
    if name == "sigir19-dev":
        judged19 = sigir19_loader.load_judgements(data / "webis-sigir19-dev")
        return sigir19.build_benchmark(judged19)
    raise ValueError(name)


def baseline_scores(study: Path, name: str, metric: str) -> dict[str, dict[str, float]]:
    """Per-query scores of each system of the recorded harness run (BM25, cosine, default)."""
    out: dict[str, dict[str, float]] = {}
    folders = [study / f"out-{name}"]
    if "-cut" in name:  # recorded without baselines: BM25 and cosine of the benchmark's own run
        folders.insert(0, study / f"out-{name.split('-cut')[0]}")
    for path in sorted(p for folder in folders for p in folder.glob("*.json")):
        try:
            payload = json.loads(path.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError):
            continue
        systems = payload.get("systems") if isinstance(payload, dict) else None
        if not isinstance(systems, list):
            continue
        for system in systems:
            per_query = system.get("per_query") or {}
            out[system["tag"]] = {q: s.get(metric, 0.0) for q, s in per_query.items()}
    return out


# -- features -----------------------------------------------------------------------------------


@dataclass
class Side:
    """One side's candidates of one query (arrays aligned by candidate)."""

    keys: list[str]
    labels: np.ndarray
    cluster_p: np.ndarray
    own: np.ndarray
    bm25: np.ndarray
    found_bm25: np.ndarray
    cosine: np.ndarray
    words: np.ndarray
    vectors: np.ndarray
    texts: list[str]
    argument: np.ndarray  # argumentativeness prior, filled per fold


@dataclass
class QueryPools:
    qid: str
    text: str
    sides: dict[str, Side]


def read_pools(path: Path) -> dict[str, QueryPools]:
    with path.open("rb") as handle:
        records = pickle.load(handle)
    out = {}
    for qid, record in records.items():
        sides = {}
        for side, raw in record["sides"].items():
            pool = raw["pool"]
            sides[side] = Side(
                keys=raw["keys"],
                labels=np.asarray(pool["labels"]),
                cluster_p=np.asarray(pool["cluster_p"], float),
                own=np.asarray(pool["own"], float),
                bm25=np.asarray(pool["bm25"], float),
                found_bm25=np.asarray(pool["found_bm25"], bool),
                cosine=np.asarray(pool["cosine"], float),
                words=np.asarray(pool["words"], float),
                vectors=np.asarray(raw["embeddings"], np.float32),
                texts=raw["texts"],
                argument=np.zeros(len(raw["keys"])),
            )
        out[qid] = QueryPools(qid, record["text"], sides)
    return out


# -- the argumentativeness prior ----------------------------------------------------------------


@dataclass
class Labelled:
    texts: list[str]
    labels: np.ndarray
    groups: list[str]  # "<benchmark>:<topic group>"


def labelled_arguments(data: Path) -> Labelled:
    """Every "Is Argument?" judgement of ArgQuality and SIGIR-19 dev, with its topic group."""
    import csv

    texts, labels, groups = [], [], []
    aq = data / "webis-argquality-20" / "webis-argquality20-arguments.csv"
    with aq.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            texts.append(row["Premise"])
            labels.append(row["Is Argument?"] == "True")
            groups.append(f"argquality:{row['Topic ID']}")
    from argkb.eval.sigir19 import topic_issues

    sigir = data / "webis-sigir19-dev"
    issues = topic_issues(sigir)
    with (sigir / "arguments.csv").open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            texts.append(row["Premise"])
            labels.append(row["Is Argument?"] == "True")
            groups.append(f"sigir19:{issues.get(str(int(row['Topic ID'])), row['Topic ID'])}")
    return Labelled(texts, np.asarray(labels), groups)


def prior_features(vectors: np.ndarray, words: np.ndarray) -> np.ndarray:
    return np.hstack([vectors, np.log1p(words)[:, None] / 5.0])


def fit_prior(vectors: np.ndarray, words: np.ndarray, labels: np.ndarray) -> Any:
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=1.0, max_iter=2000, class_weight="balanced")
    model.fit(prior_features(vectors, words), labels)
    return model


# -- ranking ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """A candidate ranker: the hybrid's weighted RRF over its routes plus the argumentativeness
    route, and optionally diversity (MMR over the clusters' representatives)."""

    w_claims: float = 3.0
    w_bm25: float = 1.0
    w_cosine: float = 0.5
    w_argument: float = 0.0
    rrf_k: float = 10.0
    mmr: float = 1.0  # 1: relevance only; < 1: MMR trade-off over cluster representatives
    representative: str = "longest"
    clusters: bool = True  # False: every premise a cluster of its own

    def label(self) -> str:
        return (
            f"c{self.w_claims:g} b{self.w_bm25:g} v{self.w_cosine:g} a{self.w_argument:g} "
            f"k{self.rrf_k:g} m{self.mmr:g} {self.representative}"
            + ("" if self.clusters else " singletons")
        )


def rank_side(side: Side, v: Variant, k: int) -> list[tuple[float, list[int]]]:
    """The hybrid's own fusion (:func:`argkb.query.rankers.hybrid_fusion.fuse_pool`) under
    ``v``; then MMR."""
    from argkb.query.rankers.hybrid_fusion import Fusion, SidePool, fuse_pool

    pool = SidePool(
        premises=list(range(len(side.keys))),
        labels=side.labels if v.clusters else np.arange(len(side.keys)),
        cluster_p=side.cluster_p,
        own=side.own, bm25=side.bm25, found_bm25=side.found_bm25, cosine=side.cosine,
        vector_hit=np.zeros(len(side.keys), bool), words=side.words.astype(np.int64),
        argument=side.argument,
    )  # fmt: skip
    fusion = Fusion(v.w_claims, v.w_bm25, v.w_cosine, v.rrf_k, v.w_argument)
    depth = k if v.mmr >= 1 else 3 * k
    entries = [(e.score, e.members) for e in fuse_pool(pool, fusion, depth, v.representative)]
    if v.mmr < 1 and entries:
        entries = _mmr(entries, side.vectors, v.mmr, k)
    return entries[:k]


def _mmr(
    entries: list[tuple[float, list[int]]], vectors: np.ndarray, lam: float, k: int
) -> list[tuple[float, list[int]]]:
    scores = np.asarray([s for s, _ in entries])
    span = scores.max() - scores.min()
    rel = (scores - scores.min()) / span if span > 0 else np.ones(len(scores))
    heads = vectors[[m[0] for _, m in entries]]
    norms = np.linalg.norm(heads, axis=1, keepdims=True)
    heads = heads / np.where(norms > 0, norms, 1)
    chosen: list[int] = []
    left = list(range(len(entries)))
    out: list[tuple[float, list[int]]] = []
    while left and len(chosen) < k:
        sim = (heads[left] @ heads[chosen].T).max(axis=1) if chosen else np.zeros(len(left))
        value = lam * rel[left] - (1 - lam) * sim
        pick = left[int(np.argmax(value))]
        chosen.append(pick)
        left.remove(pick)
        out.append((1.0 - len(out) / (k + 1), entries[pick][1]))
    return out


class ReplayRanker:
    def __init__(self, pools: dict[str, QueryPools], variant: Variant) -> None:
        self.pools, self.variant, self.name = pools, variant, variant.label()

    def rank(self, query: Any, k: int) -> Any:
        from argkb.ranking import Ranking

        pools = self.pools.get(query.qid)
        if pools is None:
            return Ranking([], [])
        entries = []
        for side in pools.sides.values():
            for score, members in rank_side(side, self.variant, k):
                entries.append((score, [side.keys[i] for i in members]))
        entries.sort(key=lambda e: -e[0])
        return Ranking([m for _, m in entries[:k]], [s for s, _ in entries[:k]])


def score(benchmark: Any, pools: dict[str, QueryPools], variant: Variant, metric: str):
    from argkb.eval.harness import evaluate

    result = evaluate(benchmark, {"v": [ReplayRanker(pools, variant)]}, depth=100)[0]
    return result.scores.mean.get(metric, 0.0), {
        q: s.get(metric, 0.0) for q, s in result.scores.per_query.items()
    }


# -- main ---------------------------------------------------------------------------------------


def grid(name: str = "weights") -> list[Variant]:
    """``weights``: the route weights, RRF k and MMR; ``shape``: representative and clusters;
    ``diverse``: singletons with MMR over premises (and the default, for reference)."""
    if name == "default":
        return [Variant(), Variant(1.0, 1.0, 1.0, 0.5, 10.0), Variant(3.0, 1.0, 1.0, 0.5, 10.0)]
    if name == "diverse":  # every premise its own cluster, diversity by MMR instead
        return [Variant()] + [
            Variant(wc, 1.0, 1.0, wa, 10.0, mmr, "longest", False)
            for wc, wa, mmr in itertools.product(
                (1.0, 3.0), (0.0, 0.5), (1.0, 0.9, 0.8, 0.7, 0.6, 0.5)
            )
        ]
    if name == "shape":
        return [
            Variant(wc, 1.0, 1.0, wa, 10.0, 1.0, rep, clusters)
            for wc, wa, rep, clusters in itertools.product(
                (0.0, 1.0, 3.0), (0.0, 0.5), ("longest", "best"), (True, False)
            )
        ]
    out = []
    for wc, wb, wv, wa, k, mmr in itertools.product(
        (0.0, 1.0, 3.0), (1.0,), (0.5, 1.0), (0.0, 0.5, 1.0), (10.0, 60.0), (1.0, 0.8),
    ):  # fmt: skip
        out.append(Variant(wc, wb, wv, wa, k, mmr))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument(
        "--only", nargs="*", default=None, help="recordings to score (NAME.pkl in --study)"
    )
    parser.add_argument(
        "--grid", choices=["weights", "shape", "diverse", "default"], default="weights"
    )
    args = parser.parse_args(argv)
    names = [n for n in BENCHMARKS if (args.study / f"{n}.pkl").exists()]
    if args.only:
        names = list(args.only)
    pools = {n: read_pools(args.study / f"{n}.pkl") for n in names}
    benchmarks = {n: build(n.split("-cut")[0], args.data) for n in names}
    assign_priors(pools, args.data)
    variants = grid(args.grid)
    print(f"{len(variants)} variants x {len(names)} benchmarks", flush=True)
    table: dict[str, dict[Variant, float]] = {n: {} for n in names}
    per_query: dict[str, dict[Variant, dict[str, float]]] = {n: {} for n in names}
    for n in names:
        metric = spec(n)[0]
        for v in variants:
            table[n][v], per_query[n][v] = score(benchmarks[n], pools[n], v, metric)
    default = Variant()
    print("\n| benchmark | recorded default replayed | BM25 | cosine |")
    for n in names:
        base = baseline_scores(args.study, n, spec(n)[0])
        replayed = f"{table[n][default]:.4f}" if default in table[n] else "-"
        print(f"| {n} | {replayed} | {_mean(base.get('bm25'))} | "
              f"{_mean(base.get('cosine'))} |")  # fmt: skip
    print("\n| variant | " + " | ".join(names) + " |")
    for v in variants:
        print(f"| {v.label()} | " + " | ".join(f"{table[n][v]:.4f}" for n in names) + " |")
    groups = sorted({spec(n)[1] for n in names})
    print("\n## leave one benchmark out")
    for held in groups:
        train = [n for n in names if spec(n)[1] != held]
        test = [n for n in names if spec(n)[1] == held]
        if not train:
            continue
        best = max(variants, key=lambda v: _train_mean(table, train, v))
        for n in test:
            base = baseline_scores(args.study, n, spec(n)[0])
            print(f"{n}: fitted on {'+'.join(train)} -> {best.label()}: {table[n][best]:.4f} "
                  f"(train mean {_train_mean(table, train, best):.4f}); BM25 "
                  f"{_mean(base.get('bm25'))}, cosine {_mean(base.get('cosine'))}, "
                  f"{_wtl(per_query[n][best], base)}")  # fmt: skip
    print("\n## best on all (in-sample, for reference)")
    best = max(variants, key=lambda v: _train_mean(table, names, v))
    print(best.label(), {n: round(table[n][best], 4) for n in names})
    with (args.study / f"table-{args.grid}.pkl").open("wb") as handle:
        pickle.dump({"table": table, "per_query": per_query}, handle)
    return 0


def _train_mean(table: dict[str, dict[Variant, float]], names: list[str], v: Variant) -> float:
    by_group: dict[str, list[float]] = {}
    for n in names:
        by_group.setdefault(spec(n)[1], []).append(table[n][v])
    return float(np.mean([np.mean(x) for x in by_group.values()]))


def _mean(scores: dict[str, float] | None) -> str:
    return f"{np.mean(list(scores.values())):.4f}" if scores else "?"


def _wtl(mine: dict[str, float], base: dict[str, dict[str, float]]) -> str:
    parts = []
    for name in ("bm25", "cosine"):
        other = base.get(name)
        if not other:
            continue
        diffs = [mine.get(q, 0.0) - other[q] for q in other]
        w = sum(d > 1e-9 for d in diffs)
        lo = sum(d < -1e-9 for d in diffs)
        parts.append(f"vs {name} {w}/{len(diffs) - w - lo}/{lo}")
    return ", ".join(parts)


class GroupFolds:
    """Models fitted without the labelled topic groups that share a text with a query's
    candidates: ``fit(keep)`` fits one on the rows where the mask ``keep`` is true; a model is
    fitted once per set of groups left out."""

    def __init__(self, texts: Sequence[str], groups: Sequence[str], fit: Any) -> None:
        from argkb.loaders.records import text_key

        self.keys = [text_key(t) for t in texts]
        self.by_group: dict[str, set[str]] = {}
        for key, group in zip(self.keys, groups, strict=True):
            self.by_group.setdefault(group, set()).add(key)
        self.fit = fit
        self.models: dict[frozenset[str], Any] = {}

    def model_for(self, candidate_texts: Iterable[str]) -> Any:
        from argkb.loaders.records import text_key

        candidates = {text_key(t) for t in candidate_texts}
        excluded = frozenset(set().union(*(g for g in self.by_group.values() if g & candidates)))
        if excluded not in self.models:
            self.models[excluded] = self.fit(np.asarray([k not in excluded for k in self.keys]))
        return self.models[excluded]


def assign_priors(pools: dict[str, dict[str, QueryPools]], data: Path) -> None:
    """Each candidate's argumentativeness prior, from a model that never saw the query's topic
    group (module docstring)."""
    from argkb.embed.model import Embedder

    labelled = labelled_arguments(data)
    vectors = np.asarray(Embedder().embed(labelled.texts), np.float32)
    words = np.asarray([len(t.split()) for t in labelled.texts], float)

    def fit(keep: np.ndarray) -> Any:
        return fit_prior(vectors[keep], words[keep], labelled.labels[keep])

    folds = GroupFolds(labelled.texts, labelled.groups, fit)
    for _name, queries in pools.items():
        for qp in queries.values():
            model = folds.model_for(t for s in qp.sides.values() for t in s.texts)
            for side in qp.sides.values():
                feats = prior_features(side.vectors, side.words)
                side.argument = model.predict_proba(feats)[:, 1]


if __name__ == "__main__":
    sys.exit(main())
