"""Tune the query engine's settings on ArgKP train (never on dev), print a table per knob.

    python -m bench tune_argkp --data ../shared/data/argkp-2021

1. Same-meaning thresholds from embeddings alone: over all pairs of train arguments matched to a
   key point, "same key point" is the positive class; the cosine threshold with the best pairwise
   F1 is the SAME_AS default, and complete-linkage cuts are scored by ARI/NMI against the key
   points (the premise-cluster default).
2. The pfidf and coreset rankers through the evaluation harness on the 48 train queries, over a
   small grid (claim temperature, claims k, coreset alpha, representative), each scored by
   Task B alpha-nDCG@10 (Dumani et al. 2020); the best setting per knob is printed.

Runs against a throw-away managed instance (or --uri).
"""

from __future__ import annotations

import itertools
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from argkb.query.settings import QuerySettings, RankerName


def pair_thresholds(vectors: Any, labels: Any) -> list[tuple[float, float, float, float]]:
    """(threshold, precision, recall, F1) of "cosine >= t means same key point" over all pairs."""
    import numpy as np

    sim = vectors @ vectors.T
    i, j = np.triu_indices(len(labels), k=1)
    same = labels[i] == labels[j]
    scores = sim[i, j]
    rows = []
    for t in np.arange(0.40, 0.96, 0.05):
        predicted = scores >= t
        tp = float((predicted & same).sum())
        precision = tp / max(predicted.sum(), 1)
        recall = tp / max(same.sum(), 1)
        f1 = 2 * precision * recall / max(precision + recall, 1e-12)
        rows.append((round(float(t), 2), precision, recall, f1))
    return rows


def thresholds(split: Any, embedder: Any) -> float:
    """Step 1: pairwise F1 per cosine threshold, then ARI/NMI per complete-linkage cut, both
    printed; the cut with the best ARI."""
    import numpy as np

    from argkb.cluster.hierarchy import agglomerative
    from argkb.eval.metrics import adjusted_rand_index, normalized_mutual_information

    clusters = split.clusters()  # key point id -> arg ids
    first_kp: dict[str, str] = {}
    for kp_id, arg_ids in clusters.items():
        for arg_id in arg_ids:
            first_kp.setdefault(arg_id, kp_id)
    by_id = {a.arg_id: a for group in split.arguments.values() for a in group}
    texts = {arg_id: a.text for arg_id, a in by_id.items()}
    matched = sorted(first_kp)
    vectors = embedder.embed([texts[a] for a in matched])
    labels = np.asarray([first_kp[a] for a in matched])
    print(f"## Same-meaning threshold (ArgKP train, {len(matched):,} matched arguments)\n")
    print("| cosine >= | precision | recall | F1 |\n|---:|---:|---:|---:|")
    best = max(pair_thresholds(vectors, labels), key=lambda r: r[3])
    for t, p, r, f in pair_thresholds(vectors, labels):
        mark = " **best**" if t == best[0] else ""
        print(f"| {t:.2f} | {p:.3f} | {r:.3f} | {f:.3f}{mark} |")
    print("\n## Premise clustering cut, complete linkage, per topic and stance (ARI / NMI)\n")
    print("| cut | ARI | NMI | clusters per pool |\n|---:|---:|---:|---:|")
    by_pool: dict[tuple[str, str], list[int]] = {}
    for index, arg_id in enumerate(matched):
        arg = by_id[arg_id]
        by_pool.setdefault((arg.topic, arg.stance), []).append(index)
    cut_rows = []
    for cut in (0.2, 0.3, 0.35, 0.4, 0.5, 0.6):
        ari, nmi, sizes = [], [], []
        for members in by_pool.values():
            predicted = agglomerative(vectors[members], linkage="complete", cut=cut)
            ari.append(adjusted_rand_index(labels[members], predicted))
            nmi.append(normalized_mutual_information(labels[members], predicted))
            sizes.append(len(set(predicted.tolist())))
        cut_rows.append((cut, float(np.mean(ari)), float(np.mean(nmi)), float(np.mean(sizes))))
    best_cut = max(cut_rows, key=lambda r: r[1])
    for cut, ari_m, nmi_m, size in cut_rows:
        mark = " **best ARI**" if cut == best_cut[0] else ""
        print(f"| {cut:.2f} | {ari_m:.3f} | {nmi_m:.3f} | {size:.1f}{mark} |")
    return best_cut[0]


def ranker_grid(choice: str) -> list[tuple[RankerName, QuerySettings]]:
    """The settings step 2 scores: ``all`` or only the ``coreset`` relevance x alpha grid."""
    from argkb.query import QuerySettings

    grid: list[tuple[RankerName, QuerySettings]] = []
    if choice == "coreset":
        for relevance, alpha, floor in itertools.product(
            ("cosine", "pfidf"), (0.7, 0.9), (0.1, 0.5)
        ):
            settings = QuerySettings(
                coreset_relevance=relevance,  # type: ignore[arg-type]
                coreset_alpha=alpha,
                coreset_filter=floor,
            )
            grid.append(("coreset", settings))
    for temperature, claims_k in itertools.product((None, 0.1, 0.05, 0.02), (3, 10)):
        if choice == "coreset":
            break
        grid.append(("pfidf", QuerySettings(claims_k=claims_k, claim_temperature=temperature)))
    if choice == "all":
        for alpha in (0.3, 0.5, 0.7, 0.9):
            grid.append(("coreset", QuerySettings(claim_temperature=0.05, coreset_alpha=alpha)))
        for rep in ("longest", "centroid", "pagerank"):
            grid.append(("pfidf", QuerySettings(claim_temperature=0.05, representative=rep)))
    return grid


def ranker_table(
    driver: Any,
    embedder: Any,
    benchmark: Any,
    grid: list[tuple[RankerName, QuerySettings]],
    premise_cut: float,
) -> None:
    """Step 2: each setting of the grid through the harness on the train queries, printed."""
    from dataclasses import replace

    from argkb.eval.adapters import EngineRanker
    from argkb.eval.harness import evaluate
    from argkb.query import QueryEngine

    print(f"\n## Rankers on ArgKP train (48 queries), premise cut {premise_cut:.2f}\n")
    print(
        "| ranker | claims k | temperature | alpha | representative | TaskB@10 | "
        "TaskA avg@10 | nDCG@10 |\n|---|---:|---:|---:|---|---:|---:|---:|"
    )
    for ranker, settings in grid:
        # every claim aligned: the engine's default when the shipped settings were chosen
        engine = QueryEngine(driver, embedder, settings=replace(settings, alignment="always"))
        result = evaluate(benchmark, {ranker: [EngineRanker(engine, ranker)]})[0]
        m = result.scores.mean
        print(
            f"| {ranker} | {settings.claims_k} | {settings.claim_temperature} | "
            f"{settings.coreset_alpha} | {settings.representative} | "
            f"{m.get('task_b@10', float('nan')):.4f} | "
            f"{m.get('task_a_avg@10', float('nan')):.4f} | "
            f"{m.get('ndcg@10', float('nan')):.4f} |",
            flush=True,
        )


def main() -> int:
    from bench.common import data_parser

    parser = data_parser(__doc__)
    parser.add_argument(
        "--grid",
        choices=["all", "coreset"],
        default="all",
        help="coreset: only the coreset relevance x alpha grid",
    )
    args = parser.parse_args()

    from argkb.embed.model import Embedder
    from argkb.eval.argkp import build_benchmark
    from argkb.loaders.argkp import load_split
    from bench.common import database, prepare_argkp

    split = load_split(args.data, "train")
    embedder = Embedder()
    # -- 1. thresholds from embeddings and key points ---------------------------------------
    best_cut = thresholds(split, embedder)

    # -- 2. rankers through the harness ------------------------------------------------------
    with database(args.uri, "tune") as driver:
        prepare_argkp(driver, args.data, "train", embedder, premise_cut=best_cut)
        benchmark = build_benchmark(split)
        grid = ranker_grid(args.grid)
        ranker_table(driver, embedder, benchmark, grid, best_cut)
    return 0


if __name__ == "__main__":
    sys.exit(main())
