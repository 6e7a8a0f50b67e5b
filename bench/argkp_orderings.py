"""Task B@10 of orderings of each ArgKP group's own arguments: what MiniLM cosines can reach.

    python -m bench argkp_orderings --data ../shared/data/argkp-2021 --split train \\
        [--against argkb-eval/results.json]

Each (topic, stance) group's arguments are ranked by an ordering that reads only their
all-MiniLM-L6-v2 vectors; the side is given, so no stance error enters. The first ten are
scored with argkb's Task B metric (:func:`argkb.eval.metrics.clusters.task_b_ndcg_at_k`; an
argument's ground-truth cluster is the first gold key point it is labelled to match, as
``argkb eval argkp`` builds it). The orderings:

* ``random``: the mean of 20 shuffles (the harness's ``random-claim`` does the same through the
  graph);
* ``central``: the highest mean cosine to the group first;
* ``facility``: greedy facility location over the arguments
  (:func:`bench.keypoint_selection.greedy_facility`); ``skip above t``: arguments with cosine t
  or more to a pick are passed over;
* ``coreset``: the biased coreset (ECIR 2021, :func:`argkb.retrieve.coreset.biased_coreset`)
  with the min-max scaled centrality as relevance, at trade-off alpha.

``--against``: an ``argkb eval argkp`` ``results.json`` of the same split; each ordering is then
compared with its ``default`` query by query (W/T/L and a 95 % interval resampling queries,
:func:`argkb.eval.compare.paired`).
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from bench.keypoint_selection import centrality_coreset, greedy_facility

Order = Callable[[Any, random.Random], list[int]]  # unit vectors, rng -> indices, best first

K = 10


def facility(x: Any, skip: float | None = None) -> list[int]:
    return greedy_facility(x @ x.T, K, np.ones(len(x), bool), skip)


def coreset(x: Any, alpha: float) -> list[int]:
    sim = x @ x.T
    return centrality_coreset(sim.mean(axis=1), sim, K, alpha)


def orderings() -> dict[str, Order]:
    out: dict[str, Order] = {
        "central": lambda x, rng: list(np.argsort(-(x @ x.T).mean(axis=1))[:K]),
        "facility": lambda x, rng: facility(x),
    }
    for skip in (0.7, 0.8):
        out[f"facility, skip above {skip:g}"] = partial(_facility_order, skip=skip)
    for alpha in (0.5, 0.7, 0.9):
        out[f"coreset, alpha {alpha:g}"] = partial(_coreset_order, alpha=alpha)
    return out


def _facility_order(x: Any, rng: random.Random, *, skip: float) -> list[int]:
    return facility(x, skip)


def _coreset_order(x: Any, rng: random.Random, *, alpha: float) -> list[int]:
    return coreset(x, alpha)


def score_groups(loaded: Any, groups: Sequence[Any]) -> dict[str, dict[str, float]]:
    """Ordering name -> query id (as ``argkb eval argkp`` names it) -> Task B@10."""
    from argkb.embed.model import Embedder
    from argkb.eval.argkp import _qid_numbers
    from argkb.eval.metrics.clusters import task_b_ndcg_at_k
    from argkb.keypoints import generate
    from argkb.keypoints.evaluate import split_ids

    labels = split_ids(loaded)[2]
    vectors = generate.embed_for(sorted({t for g in groups for _, t in g.arguments}), Embedder())
    numbers = _qid_numbers(loaded)
    scores: dict[str, dict[str, float]] = {}
    rng = random.Random(0)
    for g in groups:
        x = np.vstack([vectors[text] for _, text in g.arguments])
        truth = {}
        for arg_id, _ in g.arguments:
            matched = [kp for kp, _ in g.key_points if labels.get((arg_id, kp)) == 1]
            if matched:
                truth[arg_id] = matched[0]
        relevance = dict.fromkeys(truth.values(), 1.0)
        ids = [arg_id for arg_id, _ in g.arguments]

        def task_b(order: Sequence[int], ids: Any = ids, truth: Any = truth,
                   rel: Any = relevance) -> float:  # fmt: skip
            return task_b_ndcg_at_k([ids[i] for i in order], truth, rel, K)

        qid = f"{numbers[g.topic]}-{g.stance}"
        shuffles = [rng.sample(range(len(x)), min(K, len(x))) for _ in range(20)]
        scores.setdefault("random (x20)", {})[qid] = float(np.mean([task_b(s) for s in shuffles]))
        for name, order in orderings().items():
            scores.setdefault(name, {})[qid] = task_b(order(x, rng))
    return scores


def main(argv: Sequence[str] | None = None) -> int:
    from argkb.eval.compare import paired
    from argkb.keypoints.evaluate import load_split
    from argkb.keypoints.match import Task

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="the ArgKP-2021 folder")
    parser.add_argument("--split", default="train", choices=("train", "dev", "test"))
    parser.add_argument("--against", help="an `argkb eval argkp` results.json of the split")
    args = parser.parse_args(argv)

    loaded = load_split(args.data, args.split)
    groups = [g for g in Task.from_split(loaded).groups if g.key_points]
    scores = score_groups(loaded, groups)

    default = None
    if args.against:
        systems = json.loads(Path(args.against).read_text(encoding="utf-8"))["systems"]
        per_query = {s["tag"]: s["per_query"] for s in systems}["default"]
        default = {q: v["task_b@10"] for q, v in per_query.items()}
    print(f"{args.split}: {len(groups)} groups")
    print("| ordering | TaskB@10 | vs the default: W/T/L, diff [95 % interval] |\n|---|---:|---|")
    for name, by_query in scores.items():
        cell = ""
        if default is not None:
            per_query = {name: {q: {"t": v} for q, v in by_query.items()},
                         "default": {q: {"t": v} for q, v in default.items()}}  # fmt: skip
            c = paired(name, "default", per_query, "t")
            cell = (f"{c.wins}/{c.ties}/{c.losses}, {c.mean_difference:+.3f} "
                    f"[{c.low:+.3f}, {c.high:+.3f}]")  # fmt: skip
        print(f"| {name} | {np.mean(list(by_query.values())):.4f} | {cell} |")
    if default is not None:
        print(f"| the default (--against) | {np.mean(list(default.values())):.4f} | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
