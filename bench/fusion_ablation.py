"""Each feature of the shipped linear fusion on its own, and the shipped fusion without it.

    python -m bench fusion_ablation --study /tmp/study --data ../shared/data

On the pools recorded for ``bench/linear_study.py`` (same ``--study`` folder; ArgKP train too
where ``argkp-train.pkl`` was recorded, the stand-in for the kept ArgKP test topics), each
setting re-ranks the pools with the product's own ``fuse_pool`` and is scored with the
harness's metrics: the shipped weights (:data:`argkb.query.settings.DEFAULT`), every feature
alone at weight 1, and the shipped weights with one feature set to 0. The argumentativeness
prior is each query's fold prior (never trained on the query's topic groups), as in
``linear_study --grid prior``, so the shipped row is the replay of the shipped weights, not the
shipped prior. BM25 and cosine come from the recorded runs. A row "without X" is compared query
by query with the shipped row: wins/ties/losses of the shipped fusion and its mean lead, which
is what feature X adds on that benchmark.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from argkb.query.rankers.hybrid_fusion import LINEAR_FEATURES
from bench.linear_study import read_pools, score_all, with_fold_priors
from bench.ranker_study import BENCHMARKS, STAND_INS, baseline_scores, build, spec


def shipped_weights() -> tuple[float, ...]:
    from argkb.query.settings import DEFAULT

    return tuple(float(getattr(DEFAULT, f"linear_{name}")) for name in LINEAR_FEATURES)


def settings() -> dict[str, tuple[float, ...]]:
    """Row label -> weights in LINEAR_FEATURES order."""
    shipped = shipped_weights()
    rows = {"shipped": shipped}
    for i, name in enumerate(LINEAR_FEATURES):
        rows[f"{name} alone"] = tuple(1.0 if j == i else 0.0 for j in range(len(shipped)))
    for i, name in enumerate(LINEAR_FEATURES):
        if shipped[i]:
            rows[f"without {name}"] = tuple(0.0 if j == i else w for j, w in enumerate(shipped))
    return rows


def lead(shipped: dict[str, float], other: dict[str, float]) -> str:
    """The shipped fusion against ``other``, query by query: W/T/L and mean difference."""
    diffs = [shipped[q] - other.get(q, 0.0) for q in shipped]
    wins, ties = sum(d > 1e-12 for d in diffs), sum(abs(d) <= 1e-12 for d in diffs)
    return f"{wins}/{ties}/{len(diffs) - wins - ties} {float(np.mean(diffs)):+.3f}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", type=Path, required=True, help="the recordings' folder")
    parser.add_argument("--data", type=Path, required=True, help="../shared/data")
    args = parser.parse_args(argv)
    names = [n for n in (*STAND_INS, *BENCHMARKS) if (args.study / f"{n}.pkl").exists()]
    if not names:
        parser.error(f"no recordings (*.pkl) in {args.study}")
    rows = settings()
    pools = {n: read_pools(args.study / f"{n}.pkl") for n in names}
    with_fold_priors(pools, args.study, args.data)
    scores = {}  # benchmark -> setting -> qid -> primary metric
    base = {}
    for n in names:
        metric = spec(n)[0]
        scores[n] = score_all(build(n, args.data), pools[n], list(set(rows.values())), metric)
        base[n] = baseline_scores(args.study, n, metric)
        print(f"scored {n}", flush=True)
    print("\n| setting | " + " | ".join(f"{n} ({spec(n)[0]})" for n in names) + " |")
    print("|---|" + "---:|" * len(names))
    for label, weights in rows.items():
        cells = []
        for n in names:
            mine = scores[n][weights]
            cell = f"{np.mean(list(mine.values())):.4f}"
            if label.startswith("without"):
                cell += f" ({lead(scores[n][rows['shipped']], mine)})"
            cells.append(cell)
        print(f"| {label} | " + " | ".join(cells) + " |")
    for system in ("bm25", "cosine"):
        cells = [f"{np.mean(list(base[n][system].values())):.4f}" if system in base[n] else "-"
                 for n in names]  # fmt: skip
        print(f"| {system} (recorded run) | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
