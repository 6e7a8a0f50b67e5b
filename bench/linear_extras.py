"""Two additions to the linear fusion that were measured and not adopted: MMR and prevalence.

    python -m bench linear_extras --study /tmp/study --data ../shared/data [--only mmr|size]

On the pools recorded for ``bench/linear_study.py`` (same ``--study`` folder):

* ``mmr``: maximal marginal relevance over the cluster representatives of each side's linear
  list (the fine grid's best weights, the default of commit 660096e), trade-offs 1 (plain
  relevance), .9, .8, .7 and .5, with ``bench/ranker_study.py``'s MMR over the recorded
  embeddings;
* ``size``: a prevalence feature, log(1 + the premise cluster's candidates on that side) over
  the side's largest, on top of the shipped weights (with fold priors, as ``linear_study
  --grid prior``): its weight at 0 to 1, and which weight each benchmark gets when it is left
  out (the others' best mean over a small grid).

docs/results/answer-quality.md reports both ("What this shows").
"""

from __future__ import annotations

import argparse
import itertools
import pickle
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bench.linear_study import Replay, read_pools, with_fold_priors
from bench.ranker_study import build, spec

NAMES = ("argkp-dev", "aq-long", "aq-short", "microtexts", "sigir19-dev")
FINE_BEST = {"cosine": 1.0, "claim": 1.5, "support": 0.1, "length": 0.75}
SHIPPED = {"bm25": 0.25, "cosine": 1.0, "claim": 1.5, "support": 0.1, "length": 0.75,
           "argument": 0.25}  # fmt: skip


def with_size(features: dict[str, Any], labels: Any) -> dict[str, Any]:
    """``features`` plus ``size``: log(1 + candidates of the premise's cluster) over the side's
    largest."""
    _, inverse, counts = np.unique(labels, return_inverse=True, return_counts=True)
    size = np.log1p(counts[inverse])
    return {**features, "size": size / size.max() if size.max() > 0 else size}


def score(name: str, data: Path, ranker: Replay) -> float:
    from argkb.eval.harness import evaluate

    result = evaluate(build(name, data), {"v": [ranker]}, depth=100)[0]
    return float(result.scores.mean.get(spec(name)[0], 0.0))


def run_mmr(study: Path, data: Path) -> None:
    print("| benchmark | MMR 1 (none) | .9 | .8 | .7 | .5 |\n|---|---:|---:|---:|---:|---:|")
    for name in NAMES:
        pools = read_pools(study / f"{name}.pkl")
        with (study / f"{name}.pkl").open("rb") as handle:
            raw = pickle.load(handle)
        vectors = {q: {s: np.asarray(r["sides"][s]["embeddings"], np.float32)
                       for s in r["sides"]} for q, r in raw.items()}  # fmt: skip
        row = [score(name, data, Replay(pools, FINE_BEST, mmr=lam, vectors=vectors))
               for lam in (1.0, 0.9, 0.8, 0.7, 0.5)]  # fmt: skip
        print(f"| {name} | " + " | ".join(f"{v:.4f}" for v in row) + " |", flush=True)


def run_size(study: Path, data: Path) -> None:
    import argkb.query.rankers.hybrid_fusion as hybrid

    pools = {n: read_pools(study / f"{n}.pkl") for n in NAMES}
    with_fold_priors(pools, study, data)
    plain = hybrid.premise_features
    hybrid.premise_features = lambda pool: with_size(plain(pool), pool.labels)
    try:
        grid = list(itertools.product((1.0, 1.5, 2.0), (0.1, 0.25), (0.5, 0.75), (0.25, 0.5),
                                      (0.0, 0.1, 0.25, 0.5, 1.0)))  # fmt: skip
        table: dict[str, dict[tuple[float, ...], float]] = {n: {} for n in NAMES}
        for claim, support, length, argument, size in grid:
            weights = {**SHIPPED, "claim": claim, "support": support, "length": length,
                       "argument": argument, "size": size}  # fmt: skip
            for n in NAMES:
                table[n][(claim, support, length, argument, size)] = score(
                    n, data, Replay(pools[n], weights)
                )
    finally:
        hybrid.premise_features = plain
    print("| size weight (shipped weights) | " + " | ".join(NAMES) + " |")
    for size in (0.0, 0.1, 0.25, 0.5, 1.0):
        key = (1.5, 0.1, 0.75, 0.25, size)
        print(f"| {size:g} | " + " | ".join(f"{table[n][key]:.4f}" for n in NAMES) + " |")
    for n in NAMES:
        train = [m for m in NAMES if spec(m)[1] != spec(n)[1]]
        best = max(grid, key=lambda g: _group_mean(table, train, g))
        print(f"{n} left out: size weight {best[-1]:g}, score {table[n][best]:.4f}")


def _group_mean(table: dict[str, dict[Any, float]], names: list[str], key: Any) -> float:
    groups: dict[str, list[float]] = {}
    for n in names:
        groups.setdefault(spec(n)[1], []).append(table[n][key])
    return float(np.mean([np.mean(v) for v in groups.values()]))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", type=Path, required=True, help="the recordings' folder")
    parser.add_argument("--data", type=Path, required=True, help="../shared/data")
    parser.add_argument("--only", choices=["mmr", "size"])
    args = parser.parse_args(argv)
    if args.only in (None, "mmr"):
        run_mmr(args.study, args.data)
    if args.only in (None, "size"):
        run_size(args.study, args.data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
