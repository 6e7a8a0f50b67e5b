"""A relevance cross-encoder trained on judged relevance, scored as a fusion feature, held out.

    python -m bench relevance_cross --data ../shared/data --out DIR --held-out sigir19-dev \\
        [--without argkp] [--epochs 2] [--device cpu|cuda]
    python -m bench relevance_cross --data ../shared/data --out DIR --pairs PAIRS.jsonl
    python -m bench relevance_cross --data ../shared/data --out DIR --score --study /tmp/study \\
        [--benchmark sigir19-dev]

Training: the stance cross-encoder's recipe (:func:`argkb.stance.cross.train`: all-MiniLM-L6-v2
with rank-8 adapters and a linear head, 256 tokens) without its negation augmentation, on
(query, premise) pairs from every labelled set except the held-out benchmark's:

* ``argquality``: a topic's long and short query with a premise whose relevance z-score is
  above .5 (label 1) or below -.3 (0; those in between are left out);
* ``sigir19``: a topic's query with an argument judged 3 or 4 (1), or 1 or spam (0; 2 left out);
* ``argkp``: an ArgKP *train* topic with up to 100 of its arguments (1).

Every relevant premise is shown once more with another topic's query, as 0. Left out of
training, so that the scored benchmark stays unseen: its own set, the topics of the other sets
that argue the same issues (:data:`SHARED_ISSUES`), and every premise whose text it has.
``--without`` drops a set more. The model's ``trained_on`` records the sets and their pair
counts, and ``--score`` refuses a benchmark the model was not held out from. About 15 minutes
for two epochs on a 2-core CPU; about a minute on an H100.

``--pairs``: P(relevant) of (query, text) pairs listed one JSON object a line (``bench``,
``q``, ``t``), written as the caches ``--score`` reads (``probabilities-<bench>.json`` in
``--out``), so a lent GPU can answer them and this CPU score them.

Scoring: the model's probability for each recorded candidate (``bench/study_recorder.py``
pools) as a seventh feature beside the shipped weights, with fold priors as ``linear_study
--grid prior``; the benchmark's primary metric and, where the harness gives it, nDCG'.

docs/results/answer-quality.md has the runs (not adopted).
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

WEIGHTS = (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0)
CONDENSED = "ndcg'@10"
SETS = ("argquality", "sigir19", "argkp")
HELD_OUT = {"sigir19-dev": "sigir19", "aq-long": "argquality", "aq-short": "argquality",
            "argkp-dev": "argkp-dev", "microtexts": "microtexts"}  # fmt: skip
# topics of a training set that argue the held-out benchmark's issues (checked by their text)
SHARED_ISSUES: dict[str, dict[str, dict[str, str]]] = {
    "sigir19": {
        "argquality": {"11": "Health Care", "14": "Death Penalty"},
        "argkp": {"capital punishment": "", "atheism": "", "nuclear weapons": ""},
    },
    "argquality": {
        "sigir19": {
            "0009": "healthcare",
            "0029": "health care",
            "0013": "death penalty",
            "0023": "death penalty",
        },
        "argkp": {"capital punishment": "", "cannabis": ""},
    },
    "argkp-dev": {"argquality": {"6": "School Uniforms", "13": "Concealed Handgun"}},
    "microtexts": {},
}


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _shared(held_out: str, source: str, topics: dict[str, str]) -> set[str]:
    """The ids of ``source``'s topics that argue ``held_out``'s issues; each named topic's text
    must contain the words given, so that a renumbered file fails here, not silently."""
    named = SHARED_ISSUES[held_out].get(source, {})
    if source == "argkp":
        return {t for t in topics if any(words in t for words in named)}
    for topic, words in named.items():
        if words.lower() not in topics.get(topic, "").lower():
            raise SystemExit(f"{source} topic {topic} is not about {words!r}: {topics.get(topic)}")
    return set(named)


def _held_out_texts(data: Path, held_out: str) -> set[str]:
    from argkb.loaders.records import text_key

    if held_out == "sigir19":
        return {text_key(r["Premise"]) for r in _rows(data / "webis-sigir19-dev" / "arguments.csv")}
    if held_out == "argquality":
        aq = data / "webis-argquality-20" / "webis-argquality20-arguments.csv"
        return {text_key(r["Premise"]) for r in _rows(aq)}
    return set()


def labelled(data: Path, source: str) -> tuple[dict[str, list[str]], list[tuple[str, str, bool]]]:
    """A set's topics (id -> its queries) and its judged (topic, premise, relevant) rows."""
    if source == "argquality":
        aq = data / "webis-argquality-20"
        topics = {r["Topic ID"]: [r["Long Query"], r["Short Query"]]
                  for r in _rows(aq / "webis-argquality20-topics.csv")}  # fmt: skip
        rows = [(r["Topic ID"], r["Premise"], float(r["Relevance"]) > 0.5)
                for r in _rows(aq / "webis-argquality20-arguments.csv")
                if not -0.3 <= float(r["Relevance"]) <= 0.5]  # fmt: skip
        return topics, rows
    if source == "sigir19":
        sigir = data / "webis-sigir19-dev"
        topics = {r["Topic ID"]: [r["Query"]] for r in _rows(sigir / "topics.csv")}
        rows = [(r["Topic ID"], r["Premise"], int(r["Relevance"]) >= 3)
                for r in _rows(sigir / "arguments.csv") if int(r["Relevance"]) != 2]  # fmt: skip
        return topics, rows
    shuffle = random.Random(0)
    by_topic: dict[str, list[str]] = {}
    for r in _rows(data / "argkp-2021" / "arguments_train.csv"):
        by_topic.setdefault(r["topic"], []).append(r["argument"])
    rows = [(t, a, True) for t, args in sorted(by_topic.items())
            for a in shuffle.sample(args, min(100, len(args)))]  # fmt: skip
    return {t: [t] for t in by_topic}, rows


def training_pairs(
    data: Path, held_out: str, without: Sequence[str] = ()
) -> tuple[list[str], list[str], list[bool], dict[str, int]]:
    """Queries, premises, labels and pairs per set (module docstring)."""
    from argkb.loaders.records import text_key

    unseen = _held_out_texts(data, held_out)
    shuffle = random.Random(0)
    queries: list[str] = []
    premises: list[str] = []
    labels: list[bool] = []
    counts: dict[str, int] = {}
    for source in SETS:
        if source == held_out or source in without:
            continue
        topics, rows = labelled(data, source)
        shared = _shared(held_out, source, {t: " ".join(q) for t, q in topics.items()})
        kept = sorted(t for t in topics if t not in shared)
        before = len(labels)
        for topic, premise, relevant in rows:
            if topic not in kept or text_key(premise) in unseen:
                continue
            for query in topics[topic]:
                queries.append(query)
                premises.append(premise)
                labels.append(relevant)
            if relevant:
                other = shuffle.choice([t for t in kept if t != topic])
                queries.append(shuffle.choice(topics[other]))
                premises.append(premise)
                labels.append(False)
        counts[source] = len(labels) - before
    return queries, premises, labels, counts


def train_model(data: Path, out: Path, held_out: str, without: Sequence[str], epochs: int,
                device: str, seed: int = 0) -> None:  # fmt: skip
    from argkb.stance.cross import CrossConfig, CrossStanceModel, train

    queries, premises, labels, counts = training_pairs(data, held_out, without)
    print(f"{len(labels)} pairs, {sum(labels)} relevant, per set {counts}", flush=True)
    config = CrossConfig(epochs=epochs, negation_augment=False, seed=seed,
                         trained_on={"relevance": counts, "held_out": held_out})  # fmt: skip
    tensors = train(queries, premises, labels, config, device=device)
    out.mkdir(parents=True, exist_ok=True)
    CrossStanceModel.save(tensors, config, out / "model.safetensors", out / "model.json")
    print(f"written: {out}")


def _model(out: Path, device: str = "cpu") -> Any:
    from argkb.stance.cross import CrossStanceModel

    return CrossStanceModel.load(out / "model.safetensors", out / "model.json", device=device)


def pair_probabilities(out: Path, pairs: Path, device: str) -> None:
    """``--pairs``: the caches :func:`probabilities` reads, one per benchmark in ``pairs``."""
    by_bench: dict[str, list[tuple[str, str]]] = {}
    with pairs.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            by_bench.setdefault(row["bench"], []).append((row["q"], row["t"]))
    model = _model(out, device)
    for name, found in by_bench.items():
        if not held_out_from(out, name):
            continue
        p = model.probability([q for q, _ in found], [t for _, t in found])
        cache = {f"{q}\x00{t}": float(v) for (q, t), v in zip(found, p, strict=True)}
        (out / f"probabilities-{name}.json").write_text(json.dumps(cache))
        print(f"{name}: {len(found)} pairs", flush=True)


def probabilities(out: Path, name: str, records: dict[str, Any]) -> dict[str, float]:
    """P(relevant) of every (query, candidate) pair of a recording, cached in ``out``."""
    cache = out / f"probabilities-{name}.json"
    if cache.exists():
        return dict(json.loads(cache.read_text()))
    pairs = sorted({(r["text"], t) for r in records.values()
                    for side in r["sides"].values() for t in side["texts"]})  # fmt: skip
    found = _model(out).probability([q for q, _ in pairs], [t for _, t in pairs])
    probs = {f"{q}\x00{t}": float(p) for (q, t), p in zip(pairs, found, strict=True)}
    cache.write_text(json.dumps(probs))
    return probs


def held_out_from(out: Path, name: str) -> bool:
    """Whether the model in ``out`` was trained with benchmark ``name`` held out."""
    info = json.loads((out / "model.json").read_text(encoding="utf-8"))
    return name == "microtexts" or info.get("trained_on", {}).get("held_out") == HELD_OUT[name]


def check_held_out(out: Path, name: str) -> None:
    """Refuse to score ``name`` with a model that was not held out from it."""
    if not held_out_from(out, name):
        raise SystemExit(f"{out}: not trained with {name} held out, cannot score it")


def score(out: Path, study: Path, data: Path, name: str) -> None:
    from argkb.eval.harness import evaluate
    from bench.linear_extras import SHIPPED, features_changed
    from bench.linear_study import Replay, read_pools, with_fold_priors
    from bench.ranker_study import build

    check_held_out(out, name)
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
    with features_changed(lambda features, pool: {**features, "rel": values[id(pool)]}):
        print(f"| {name}: relevance weight | primary metric | nDCG'@10 |\n|---:|---:|---:|")
        for label, weights in [("alone", {"rel": 1.0})] + [
            (f"{w:g}", {**SHIPPED, "rel": w}) for w in WEIGHTS
        ]:
            mean = evaluate(benchmark, {"v": [Replay(pools[name], weights)]}, depth=100)[0]
            means = mean.scores.mean
            primary = means["task_b@10"] if "task_b@10" in means else means["ndcg@10"]
            condensed = f"{means[CONDENSED]:.4f}" if CONDENSED in means else "-"
            print(f"| {label} | {primary:.4f} | {condensed} |", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="../shared/data")
    parser.add_argument("--out", type=Path, required=True, help="the model's folder")
    parser.add_argument("--held-out", choices=["sigir19", "argquality", "argkp-dev"],
                        help="train for scoring this benchmark (microtexts: any)")  # fmt: skip
    parser.add_argument("--without", action="append", choices=SETS, default=[],
                        help="leave this training set out too")  # fmt: skip
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pairs", type=Path, help="answer these pairs (module docstring)")
    parser.add_argument("--score", action="store_true", help="score a trained model's feature")
    parser.add_argument("--study", type=Path, help="the recordings' folder (with --score)")
    parser.add_argument("--benchmark", action="append", choices=sorted(HELD_OUT))
    args = parser.parse_args(argv)
    if args.pairs is not None:
        pair_probabilities(args.out, args.pairs, args.device)
        return 0
    if not args.score:
        if args.held_out is None:
            parser.error("training needs --held-out")
        train_model(
            args.data, args.out, args.held_out, args.without, args.epochs, args.device, args.seed
        )
        return 0
    if args.study is None:
        parser.error("--score needs --study")
    for name in args.benchmark or ["sigir19-dev"]:
        score(args.out, args.study, args.data, name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
