"""Choose the hybrid ranker's route weights and RRF constant on training data only.

    python bench/tune_hybrid.py --data ../shared/data/argkp-2021 [--uri bolt://...]
    python bench/tune_hybrid.py --fit argquality --data ../shared/data/webis-argquality-20

``--fit argkp`` (default) loads ArgKP **train** (48 queries; never dev) into a throw-away managed
instance (or uses ``--uri``, which must hold it loaded, embedded and clustered) and scores every
setting of the grid through the evaluation harness. ``--fit argquality`` does the same on
Webis-ArgQuality-20, for the reverse cross-dataset row (fitted on ArgQuality, scored on ArgKP dev).
Prints one row per setting, with the primary metric (Task B alpha-nDCG@10 for ArgKP, nDCG@10
for ArgQuality), and the best.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

WEIGHTS_CLAIMS = (1.0, 2.0, 4.0)
WEIGHTS_BM25 = (0.5, 1.0)
RRF_K = (60.0,)
REPRESENTATIVES = ("best", "longest")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--fit", choices=["argkp", "argquality"], default="argkp")
    parser.add_argument("--uri")
    args = parser.parse_args()

    from common import database, prepare_argkp

    from argkb.cluster.store import cluster_units
    from argkb.embed.model import Embedder
    from argkb.eval.adapters import EngineRanker
    from argkb.eval.harness import evaluate
    from argkb.retrieve.engine import QueryEngine, Settings

    embedder = Embedder()
    with database(args.uri, f"tune-hybrid-{args.fit}") as driver:
        if args.fit == "argkp":
            from argkb.eval.argkp import build_benchmark
            from argkb.loaders.argkp import load_split

            benchmark = build_benchmark(load_split(args.data, "train"))
            if args.uri is None:
                prepare_argkp(driver, args.data, "train", embedder)
            metric = "task_b@10"
        else:
            from argkb.embed.store import embed_collection
            from argkb.eval.argquality import COLLECTION, load_argquality
            from argkb.eval.argquality import build_benchmark as build_aq
            from argkb.loaders.argquality import load_judgements

            benchmark = build_aq(load_judgements(args.data))
            if args.uri is None:
                load_argquality(driver, None, args.data)
                embed_collection(driver, embedder, COLLECTION)
                cluster_units(driver, kind="claim")
                cluster_units(driver, kind="premise")
            metric = "ndcg@10"
        print(f"\n## hybrid on {args.fit} ({len(benchmark.queries)} queries), {metric}\n")
        print("| w_claims | w_bm25 | w_cosine | rrf k | representative | TaskB@10 | nDCG@10 "
              "| P@10 |")  # fmt: skip
        print("|---:|---:|---:|---:|---|---:|---:|---:|")
        rows = []
        grid = itertools.product(WEIGHTS_CLAIMS, WEIGHTS_BM25, RRF_K, REPRESENTATIVES)
        for w_claims, w_bm25, rrf_k, rep in grid:
            settings = Settings(
                weight_claims=w_claims, weight_bm25=w_bm25, rrf_k=rrf_k,
                representative=rep,  # type: ignore[arg-type]
            )  # fmt: skip
            engine = QueryEngine(driver, embedder, settings=settings)
            result = evaluate(benchmark, {"hybrid": [EngineRanker(engine, "hybrid")]}, depth=10)
            m = result[0].scores.mean
            rows.append((m.get(metric, 0.0), w_claims, w_bm25, rrf_k, rep))
            print(
                f"| {w_claims} | {w_bm25} | 1.0 | {rrf_k:.0f} | {rep} | "
                f"{m.get('task_b@10', float('nan')):.4f} | {m.get('ndcg@10', 0.0):.4f} | "
                f"{m.get('p@10', 0.0):.4f} |",
                flush=True,
            )
        best = max(rows)
        print(
            f"\nbest {metric} {best[0]:.4f}: weight_claims={best[1]}, weight_bm25={best[2]}, "
            f"weight_cosine=1.0, rrf_k={best[3]:.0f}, representative={best[4]}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
