"""Recall@100 of relevant premises before ranking: each candidate route alone, and the hybrid set.

    python -m bench candidate_recall --benchmark argkp --data ../shared/data/argkp-2021 \
        --uri bolt://127.0.0.1:7687
    python -m bench candidate_recall --benchmark argquality \
        --data ../shared/data/webis-argquality-20 --uri bolt://127.0.0.1:7687 [--query short]

The database at ``--uri`` must hold the benchmark loaded, embedded and clustered (as ``argkb
eval`` leaves it). For every query the hybrid ranker's candidates are gathered once
(``QueryEngine.hybrid_pools``) and ranked by each route on its own: ``claims`` (P(pi^s|q), then
P(p^s|q); only premises of retrieved claims), ``bm25`` (only BM25 hits), ``cosine`` (every
candidate; ``vector`` is the vector index's own hits), and the hybrid's fused order. Recall@100
is the share of the query's relevant documents among the first 100 premises of each list;
``union`` is the whole candidate set. Means over the queries with a relevant document.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benchmark", choices=["argkp", "argquality"], required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--split", default="dev")
    parser.add_argument("--uri", required=True)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument(
        "--query",
        choices=["long", "short"],
        default="long",
        help="ArgQuality's topic question (long) or its short topic title (short)",
    )
    args = parser.parse_args()

    import numpy as np

    from argkb.db import cypher
    from argkb.embed.model import Embedder
    from argkb.query import QueryEngine, QuerySettings
    from argkb.query.rankers.hybrid_fusion import Fusion, fuse_pool, premise_ranks
    from argkb.ranking import Ranking
    from argkb.retrieve.fusion import ranks_by
    from bench.common import driver

    if args.benchmark == "argkp":
        from argkb.eval.argkp import build_benchmark
        from argkb.loaders.argkp import load_split

        benchmark = build_benchmark(load_split(args.data, args.split))
    else:
        from argkb.eval.argquality import build_benchmark as build_aq
        from argkb.loaders.argquality import load_judgements

        benchmark = build_aq(load_judgements(args.data), query=args.query)
    routes = ("claims", "bm25", "vector", "cosine", "hybrid", "union")
    recall: dict[str, list[float]] = {r: [] for r in routes}
    sizes: list[int] = []
    with driver(args.uri) as drv:
        # every claim aligned: the engine's default when these numbers were first measured
        engine = QueryEngine(drv, Embedder(), settings=QuerySettings(alignment="always"))
        s = engine.settings
        fusion = Fusion(s.weight_claims, s.weight_bm25, s.weight_cosine, s.rrf_k)
        for query in benchmark.queries:
            relevant = {d for d, g in benchmark.qrels.get(query.qid, {}).items() if g > 0}
            if not relevant:
                continue
            pools = engine.hybrid_pools(query.text, stance=query.stance or "both",
                                        collection=query.collection)  # fmt: skip
            # each route's list; a query for both stances interleaves its sides by rank (score)
            ranked: dict[str, list[tuple[float, str]]] = {r: [] for r in routes}
            for pool in pools.values():
                info = {
                    r["id"]: r["key"]
                    for r in cypher.read(drv, "query/units", ids=pool.premises, vectors=False)
                }
                keys = [info[p] for p in pool.premises]
                orders = premise_ranks(pool)
                orders["vector"] = ranks_by(pool.cosine, found=pool.vector_hit)
                for route, ranks in orders.items():
                    ranked[route] += [(float(ranks[i]), keys[i]) for i in np.flatnonzero(ranks)]
                fused = fuse_pool(pool, fusion, len(keys))
                ranked["hybrid"] += [(-entry.score, keys[i]) for entry in fused
                                     for i in entry.members]  # fmt: skip
                ranked["union"] += [(0.0, key) for key in keys]
            lists = {r: [key for _, key in sorted(pairs, key=lambda t: t[0])]
                     for r, pairs in ranked.items()}  # fmt: skip
            sizes.append(len(set(lists["union"])))
            for route in routes:
                depth = None if route == "union" else args.depth
                docs = benchmark.to_documents(query.qid, Ranking.from_ids(lists[route])).documents
                hits = set(docs[:depth]) & relevant
                recall[route].append(len(hits) / len(relevant))
    print(f"\n{benchmark.name}: {len(sizes)} queries, median candidate set "
          f"{int(np.median(sizes))} premises\n")  # fmt: skip
    print(f"| route | recall@{args.depth} |\n|---|---:|")
    for route in routes:
        label = "union (all candidates)" if route == "union" else route
        print(f"| {label} | {np.mean(recall[route]):.4f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
