"""A relevance cross-encoder trained on ArgQuality-20's judgements, scored as a fusion feature.

    python -m bench relevance_cross --data ../shared/data --out /tmp/rel-aq [--epochs 2] \\
        [--device cpu|cuda]
    python -m bench relevance_cross --data ../shared/data --out /tmp/rel-aq --score \\
        --study /tmp/study [--benchmark sigir19-dev]

Training: the stance cross-encoder's recipe (:func:`argkb.stance.cross.train`: all-MiniLM-L6-v2
with rank-8 adapters and a linear head, 256 tokens) without its negation augmentation, on
pairs of a topic's query (long and short) and a premise: label 1 where ArgQuality's relevance
z-score is above .5, 0 where it is below -.3 (judgements in between are left out), and every
relevant premise once more, with another topic's query, as 0. Left out so that SIGIR-19 dev
stays unseen: the topics it shares (3, health care; 6, death penalty) and every premise whose
text it has. About 15 minutes for two epochs on a 2-core CPU.

Scoring: the model's probability for each recorded candidate (``bench/study_recorder.py``
pools) as a seventh feature beside the shipped weights, with fold priors as ``linear_study
--grid prior``; the benchmark's primary metric and, where the harness gives it, nDCG'.
ArgQuality's own pools are not scored: the model saw their judgements.

docs/results/answer-quality.md has the run (not adopted).
"""

from __future__ import annotations

import argparse
import csv
import json
import pickle
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

SHARED_WITH_SIGIR19 = {"3", "6"}  # ArgQuality topics: right to health care, death penalty
WEIGHTS = (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0)
CONDENSED = "ndcg'@10"


def training_pairs(data: Path) -> tuple[list[str], list[str], list[bool]]:
    """Queries, premises and labels (module docstring)."""
    from argkb.loaders.records import text_key

    def rows(path: Path) -> list[dict[str, str]]:
        with path.open(encoding="utf-8", newline="") as handle:
            return list(csv.DictReader(handle))

    sigir = {text_key(r["Premise"]) for r in rows(data / "webis-sigir19-dev" / "arguments.csv")}
    aq = data / "webis-argquality-20"
    topics = {r["Topic ID"]: (r["Long Query"], r["Short Query"])
              for r in rows(aq / "webis-argquality20-topics.csv")}  # fmt: skip
    kept = [t for t in topics if t not in SHARED_WITH_SIGIR19]
    shuffle = random.Random(0)
    queries, premises, labels = [], [], []
    for row in rows(aq / "webis-argquality20-arguments.csv"):
        z = float(row["Relevance"])
        if row["Topic ID"] not in kept or text_key(row["Premise"]) in sigir or -0.3 <= z <= 0.5:
            continue
        for query in topics[row["Topic ID"]]:
            queries.append(query)
            premises.append(row["Premise"])
            labels.append(z > 0.5)
        if z > 0.5:
            other = shuffle.choice([t for t in kept if t != row["Topic ID"]])
            queries.append(shuffle.choice(topics[other]))
            premises.append(row["Premise"])
            labels.append(False)
    return queries, premises, labels


def train_model(data: Path, out: Path, epochs: int, device: str) -> None:
    from argkb.stance.cross import CrossConfig, CrossStanceModel, train

    queries, premises, labels = training_pairs(data)
    print(f"{len(labels)} pairs, {sum(labels)} relevant", flush=True)
    config = CrossConfig(epochs=epochs, negation_augment=False,
                         trained_on={"argquality-relevance": len(labels)})  # fmt: skip
    tensors = train(queries, premises, labels, config, device=device)
    out.mkdir(parents=True, exist_ok=True)
    CrossStanceModel.save(tensors, config, out / "model.safetensors", out / "model.json")
    print(f"written: {out}")


def probabilities(out: Path, name: str, records: dict[str, Any]) -> dict[str, float]:
    """P(relevant) of every (query, candidate) pair of a recording, cached in ``out``."""
    cache = out / f"probabilities-{name}.json"
    if cache.exists():
        return dict(json.loads(cache.read_text()))
    from argkb.stance.cross import CrossStanceModel

    model = CrossStanceModel.load(out / "model.safetensors", out / "model.json")
    pairs = sorted({(r["text"], t) for r in records.values()
                    for side in r["sides"].values() for t in side["texts"]})  # fmt: skip
    found = model.probability([q for q, _ in pairs], [t for _, t in pairs])
    probs = {f"{q}\x00{t}": float(p) for (q, t), p in zip(pairs, found, strict=True)}
    cache.write_text(json.dumps(probs))
    return probs


def score(out: Path, study: Path, data: Path, name: str) -> None:
    import argkb.query.rankers.hybrid_fusion as hybrid
    from argkb.eval.harness import evaluate
    from bench.linear_extras import SHIPPED
    from bench.linear_study import Replay, read_pools, with_fold_priors
    from bench.ranker_study import build

    pools = {name: read_pools(study / f"{name}.pkl")}
    with_fold_priors(pools, study, data)
    with (study / f"{name}.pkl").open("rb") as handle:
        records = pickle.load(handle)
    probs = probabilities(out, name, records)
    values = {}
    for qid, sides in pools[name].items():
        query = records[qid]["text"]
        for side, (pool, _) in sides.items():
            texts = records[qid]["sides"][side]["texts"]
            values[id(pool)] = np.asarray([probs[f"{query}\x00{t}"] for t in texts])
    benchmark = build(name, data)
    plain = hybrid.premise_features
    hybrid.premise_features = lambda pool: {**plain(pool), "rel": values[id(pool)]}
    try:
        print(f"| {name}: relevance weight | primary metric | nDCG'@10 |\n|---:|---:|---:|")
        for label, weights in [("alone", {"rel": 1.0})] + [
            (f"{w:g}", {**SHIPPED, "rel": w}) for w in WEIGHTS
        ]:
            mean = evaluate(benchmark, {"v": [Replay(pools[name], weights)]}, depth=100)[0]
            means = mean.scores.mean
            primary = means["task_b@10"] if "task_b@10" in means else means["ndcg@10"]
            condensed = f"{means[CONDENSED]:.4f}" if CONDENSED in means else "-"
            print(f"| {label} | {primary:.4f} | {condensed} |", flush=True)
    finally:
        hybrid.premise_features = plain


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="../shared/data")
    parser.add_argument("--out", type=Path, required=True, help="the model's folder")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--score", action="store_true", help="score a trained model's feature")
    parser.add_argument("--study", type=Path, help="the recordings' folder (with --score)")
    parser.add_argument("--benchmark", action="append", choices=["sigir19-dev", "argkp-dev",
                                                                 "microtexts"])  # fmt: skip
    args = parser.parse_args(argv)
    if not args.score:
        train_model(args.data, args.out, args.epochs, args.device)
        return 0
    if args.study is None:
        parser.error("--score needs --study")
    for name in args.benchmark or ["sigir19-dev", "argkp-dev", "microtexts"]:
        score(args.out, args.study, args.data, name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
