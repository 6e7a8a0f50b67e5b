"""Choose the hybrid ranker's route weights, RRF constant and representative on training data.

    python -m bench tune_hybrid --data ../shared/data/argkp-2021 [--uri bolt://...]
    python -m bench tune_hybrid --fit argquality --data ../shared/data/webis-argquality-20

``--fit argkp`` (default) loads ArgKP **train** (48 queries; never dev) into a throw-away managed
instance (or uses ``--uri``, which must hold it loaded, embedded and clustered). ``--fit
argquality`` does the same with Webis-ArgQuality-20 (long queries), for the reverse
cross-dataset row. Each query's candidates and route evidence are gathered once through the
query engine (``QueryEngine.hybrid_pools``); every setting of the grid is then fused from them
(``argkb.query.rankers.hybrid_fusion.fuse_pool``, the code ``argkb query`` runs) and scored by
the evaluation harness. Prints one row per setting with the primary metric (Task B
alpha-nDCG@10 for ArgKP, nDCG@10 for ArgQuality), and the best.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path
from typing import Any

WEIGHTS_CLAIMS = (0.5, 1.0, 2.0, 3.0, 5.0)
WEIGHTS_BM25 = (0.0, 0.5, 1.0)
WEIGHTS_COSINE = (0.0, 0.5, 1.0)
RRF_K = (10.0, 60.0)
REPRESENTATIVES = ("best", "longest")


class PoolRanker:
    """Replays cached hybrid pools under one fusion setting (a harness Ranker)."""

    name = "hybrid"

    def __init__(self, pools: dict[str, Any], fusion: Any, representative: str) -> None:
        self.pools, self.fusion, self.representative = pools, fusion, representative

    def rank(self, query: Any, k: int) -> Any:
        from argkb.query.rankers.hybrid_fusion import fuse_pool
        from argkb.ranking import Ranking

        entries = []
        for side_pool, keys in self.pools[query.qid]:
            for entry in fuse_pool(side_pool, self.fusion, k, self.representative):
                entries.append((entry.score, [keys[i] for i in entry.members]))
        entries.sort(key=lambda e: -e[0])
        return Ranking([m for _, m in entries[:k]], [s for s, _ in entries[:k]])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--fit", choices=["argkp", "argquality"], default="argkp")
    parser.add_argument("--uri")
    parser.add_argument("--split", default="train", help="ArgKP split (dev only with --only)")
    parser.add_argument(
        "--only",
        help="score one setting instead of the grid, as W_CLAIMS,W_BM25,W_COSINE,RRF_K,REP "
        "(for cross-dataset rows: a setting fitted elsewhere, scored here)",
    )
    parser.add_argument(
        "--claim-weights",
        default=None,
        help="comma-separated weights of cosine vs BM25 in claim retrieval (QuerySettings."
        "claim_weight) to gather pools with, one grid each (default: the engine's own)",
    )
    args = parser.parse_args()
    if args.split != "train" and not args.only:
        parser.error("the grid is for training data only: give --only to score another split")

    from argkb.embed.model import Embedder
    from argkb.eval.harness import evaluate
    from argkb.query import QueryEngine, QuerySettings
    from bench.common import database, prepare_argkp

    embedder = Embedder()
    with database(args.uri, f"tune-hybrid-{args.fit}") as driver:
        if args.fit == "argkp":
            from argkb.eval.argkp import build_benchmark
            from argkb.loaders.argkp import load_split

            benchmark = build_benchmark(load_split(args.data, args.split))
            if args.uri is None:
                prepare_argkp(driver, args.data, args.split, embedder)
            metric = "task_b@10"
        else:
            from argkb import pipeline
            from argkb.embed.store import embed_collection
            from argkb.eval.argquality import COLLECTION, load_argquality
            from argkb.eval.argquality import build_benchmark as build_aq
            from argkb.loaders.argquality import load_judgements

            benchmark = build_aq(load_judgements(args.data))
            if args.uri is None:
                load_argquality(driver, args.data)
                embed_collection(driver, embedder, COLLECTION)
                pipeline.cluster(driver, None, rebuild=True, skip_same_as=True)
            metric = "ndcg@10"

        claim_weights = (
            [float(w) for w in args.claim_weights.split(",")]
            if args.claim_weights else [QuerySettings().claim_weight]
        )  # fmt: skip
        for claim_weight in claim_weights:
            # every claim aligned: the engine's default when the shipped weights were chosen
            settings = QuerySettings(claim_weight=claim_weight, alignment="always")
            engine = QueryEngine(driver, embedder, settings=settings)
            print(f"\n## claim retrieval: claim_weight={claim_weight}")
            _grid(args, driver, engine, benchmark, metric, evaluate)
    return 0


def _grid(args: Any, driver: Any, engine: Any, benchmark: Any, metric: str,
          evaluate: Any) -> None:  # fmt: skip
    """Gather each query's pools once through ``engine``, then score every fusion setting."""
    from argkb.db import cypher
    from argkb.query.rankers.hybrid_fusion import Fusion

    pools: dict[str, list[Any]] = {}
    for query in benchmark.queries:
        found = engine.hybrid_pools(query.text, stance=query.stance or "both",
                                    collection=query.collection)  # fmt: skip
        pools[query.qid] = []
        for side_pool in found.values():
            info = {
                r["id"]: r
                for r in cypher.read(driver, "query/units", ids=side_pool.premises, vectors=False)
            }
            keys = [info[p]["key"] for p in side_pool.premises]
            pools[query.qid].append((side_pool, keys))
    print(f"\n## hybrid on {args.fit} ({len(benchmark.queries)} queries), {metric}\n")
    print("| w_claims | w_bm25 | w_cosine | rrf k | representative | TaskB@10 | nDCG@10 "
          "| P@10 |\n|---:|---:|---:|---:|---|---:|---:|---:|")  # fmt: skip
    rows = []
    grid: Any = itertools.product(
        WEIGHTS_CLAIMS, WEIGHTS_BM25, WEIGHTS_COSINE, RRF_K, REPRESENTATIVES
    )
    if args.only:
        *numbers, representative = args.only.split(",")
        grid = [(*(float(x) for x in numbers), representative)]
    for w_claims, w_bm25, w_cos, rrf_k, rep in grid:
        if w_bm25 == 0 and w_cos == 0:
            continue
        fusion = Fusion(w_claims, w_bm25, w_cos, rrf_k)
        result = evaluate(benchmark, {"hybrid": [PoolRanker(pools, fusion, rep)]}, depth=200)
        m = result[0].scores.mean
        rows.append((round(m.get(metric, 0.0), 4), w_claims, w_bm25, w_cos, rrf_k, rep))
        print(
            f"| {w_claims} | {w_bm25} | {w_cos} | {rrf_k:.0f} | {rep} | "
            f"{m.get('task_b@10', float('nan')):.4f} | {m.get('ndcg@10', 0.0):.4f} | "
            f"{m.get('p@10', 0.0):.4f} |",
            flush=True,
        )
    best = max(rows, key=lambda r: r[0])
    print(
        f"\nbest {metric} {best[0]:.4f}: weight_claims={best[1]}, weight_bm25={best[2]}, "
        f"weight_cosine={best[3]}, rrf_k={best[4]:.0f}, representative={best[5]}"
    )


if __name__ == "__main__":
    sys.exit(main())
