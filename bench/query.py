"""Query latency of `argkb query` (hybrid, pfidf and coreset rankers) next to BM25-only retrieval.

    python -m bench query --arguments 100000 [--queries 200] [--warmup 20] [--seed 11]

Builds (or reuses, in --workdir) a synthetic args.me corpus, loads it into a managed Neo4j
instance kept in --workdir, embeds every unit (cached by text hash), clusters claims and
premises, computes PageRank, then times --queries distinct queries after --warmup unmeasured
ones. The corpus has short texts by default (--sentences 1.5): embedding 100k arguments of
args.me-length posts with all-MiniLM-L6-v2 on a 2-core CPU would take hours, and stored text
length barely changes query latency (only the few texts fetched per answer). Query texts are
distinct conclusions of the corpus, lower-cased, with their last word dropped, so they are near
but not equal to stored claims. Each timing is end to end in the Python process: query
embedding, every Cypher round trip, ranking and fetching texts. BM25-only is one full-text query
over premise texts returning the top k texts; it needs no embedding. The hybrid is timed as
`argkb query`'s default (the stance-alignment model decides; it reads the claims' negation
vectors that `argkb embed` stores), with ``--alignment cross`` (the stance cross-encoder decides
for the 12 most credited claims, the model for the rest) and with the cross-encoder asked about
every claim, with the model and the reciprocal rank fusion of the routes (``fusion="rrf"``, the
default until 2026-11-26), and always aligned (the evaluation harness's `hybrid`).
Goals (issue): p50 <= 100 ms and p95 <= 300 ms for the rankers.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any


def parse_args() -> argparse.Namespace:
    return corpus_parser(__doc__.splitlines()[0]).parse_args()


def corpus_parser(description: str) -> argparse.ArgumentParser:
    """The options of a benchmark on this module's synthetic corpus and kept instance (also
    bench/pairs_scale.py's)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--arguments", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/argkb-bench-query"))
    parser.add_argument("--heap", default="4g")
    parser.add_argument("--pagecache", default="4g")
    parser.add_argument(
        "--sentences",
        type=float,
        default=1.5,
        help="median sentences per text of the synthetic corpus (args.me-like is 8)",
    )
    return parser


def synthetic_corpus(args: argparse.Namespace, setup: dict[str, float]) -> Path:
    """The synthetic corpus of ``args`` in the workdir, written unless it is there already."""
    from synthcorpus import Shape, write_json

    args.workdir.mkdir(parents=True, exist_ok=True)
    corpus = args.workdir / f"synth-{args.arguments}-{args.seed}-{args.sentences:g}.json"
    if not corpus.exists():
        clock = time.perf_counter()
        shape = Shape(
            sentences_median=args.sentences,
            single_sentence_share=0.5,
            max_sentences=max(2, int(4 * args.sentences)),
        )
        write_json(corpus, args.arguments, seed=args.seed, shape=shape)
        setup["generate"] = time.perf_counter() - clock
    return corpus


def prepare(driver: Any, corpus: Path, setup: dict[str, float]) -> None:
    """The graph the queries need, with the steps of :mod:`argkb.pipeline`, each only when the
    workdir's instance lacks it (a second run reuses the graph): load, embed (units and the
    claims' negations, as ``argkb embed``), claim and premise clusters (the queries read no
    SAME_AS edges), PageRank."""
    from argkb import pipeline
    from argkb.db import cypher
    from argkb.db.schema import init_schema
    from argkb.embed.model import Embedder
    from argkb.embed.store import count_negations, count_pending

    embedder = Embedder()
    init_schema(driver, dimensions=embedder.dimensions)
    clock = time.perf_counter()
    summary = pipeline.load(driver, None, "argsme", [corpus], init=False)  # schema: above
    setup["load"] = time.perf_counter() - clock
    print(
        f"corpus: {summary.arguments:,} arguments, {summary.units:,} units "
        f"({'already loaded' if summary.already_loaded else 'loaded'})",
        flush=True,
    )
    if count_pending(driver) or count_negations(driver):
        clock = time.perf_counter()
        run = pipeline.embed(driver, None, embedder)
        setup["embed"] = time.perf_counter() - clock
        print(f"embedded {run.units:,} units in {run.seconds:.0f} s and the negations of "
              f"{run.negations:,} claims", flush=True)  # fmt: skip
    has_clusters = driver.execute_query(cypher.load("cluster/has_premise_clusters")).records
    if not has_clusters[0]["any"]:
        clock = time.perf_counter()
        pipeline.cluster(driver, None, rebuild=True, skip_same_as=True)
        setup["cluster"] = time.perf_counter() - clock
        clock = time.perf_counter()
        pipeline.pagerank(driver, None)
        setup["pagerank"] = time.perf_counter() - clock


def measure(
    driver: Any, server_pid: int, args: argparse.Namespace
) -> tuple[dict[str, list[float]], dict[str, list[tuple[float, float]]], list[int], float]:
    """Wall and CPU seconds of every method on every measured query; the candidates clustered
    per query at query time; the load average before."""
    from dataclasses import replace

    from argkb.db import cypher
    from argkb.embed.model import Embedder
    from argkb.query import DEFAULT, QueryEngine, QuerySettings
    from argkb.query.alignment import model_alignment
    from argkb.retrieve.lucene import lucene_query
    from bench import common

    queries = common.benchmark_queries(driver, args.queries + args.warmup, args.seed)
    # query texts are embedded as argkb query embeds them (ONNX Runtime where installed)
    asker = Embedder.for_queries(cache=False)
    # "always": every claim aligned, the engine's default when these rows were first measured
    engine = QueryEngine(driver, asker, settings=QuerySettings(alignment="always"))
    at_query_time = QueryEngine(
        driver, asker, settings=QuerySettings(premise_clusters="query", alignment="always")
    )
    aligned = QueryEngine(driver, asker, alignment=model_alignment(asker))
    rrf = QueryEngine(driver, asker, settings=replace(DEFAULT, fusion="rrf"),
                      alignment=model_alignment(asker))  # fmt: skip
    cross = QueryEngine(driver, asker, settings=replace(DEFAULT, alignment="cross"))
    every_claim = QueryEngine(driver, asker, settings=replace(cross.settings, cross_claims=None))
    methods = {
        "hybrid, linear fusion, model alignment (argkb query's default)": (aligned, "hybrid"),
        "hybrid, linear fusion, cross-encoder alignment of 12 claims (--alignment cross)": (
            cross,
            "hybrid",
        ),
        "hybrid, linear fusion, cross-encoder alignment of every claim": (every_claim, "hybrid"),
        "hybrid, RRF, model alignment (the default until 2026-11-26)": (rrf, "hybrid"),
        "hybrid, always aligned (the harness's hybrid)": (engine, "hybrid"),
        "pfidf": (engine, "pfidf"),
        "pfidf, premise clusters at query time": (at_query_time, "pfidf"),
        "coreset": (engine, "coreset"),
    }
    bm25 = cypher.load("query/premises_fulltext")
    timings: dict[str, list[float]] = {name: [] for name in methods}
    timings["bm25"] = []
    # CPU seconds per query of this process and of the Neo4j process: unlike wall time,
    # they barely change with what else runs on the machine
    cpu: dict[str, list[tuple[float, float]]] = {name: [] for name in timings}
    candidates: list[int] = []
    names = list(methods)
    load_before = os.getloadavg()[0]
    for position, text in enumerate(queries):
        measured = position >= args.warmup
        # rotated per query, so that no method always finds the page cache warmed by another
        turn = position % len(names)
        for name in names[turn:] + names[:turn]:
            runner, ranker = methods[name]
            clock, client, server = (time.perf_counter(), time.process_time(),
                                     common.process_cpu_seconds(server_pid))  # fmt: skip
            result = runner.query(text, k=args.k, ranker=ranker)
            if measured:
                timings[name].append(time.perf_counter() - clock)
                cpu[name].append((time.process_time() - client,
                                  common.process_cpu_seconds(server_pid) - server))  # fmt: skip
                if runner is at_query_time:
                    candidates.append(result.candidates)
        clock, client, server = (time.perf_counter(), time.process_time(),
                                 common.process_cpu_seconds(server_pid))  # fmt: skip
        driver.execute_query(bm25, {"text": lucene_query(text), "k": args.k})
        if measured:
            timings["bm25"].append(time.perf_counter() - clock)
            cpu["bm25"].append((time.process_time() - client,
                                common.process_cpu_seconds(server_pid) - server))  # fmt: skip
    return timings, cpu, candidates, load_before


def main() -> int:
    args = parse_args()
    from argkb.blas import one_blas_thread

    one_blas_thread()  # as argkb query and argkb serve run (before numpy loads)
    from bench import common

    setup: dict[str, float] = {}
    corpus = synthetic_corpus(args, setup)
    inst = common.reuse_instance(args.workdir / "instance", heap=args.heap,
                                 pagecache=args.pagecache)  # fmt: skip
    driver = inst.driver()
    try:
        prepare(driver, corpus, setup)
        timings, cpu, candidates, load_before = measure(driver, inst.pid or 0, args)
    finally:
        driver.close()
        inst.stop()
    report(args, setup, timings, cpu, candidates, load_before)
    return 0


def report(
    args: argparse.Namespace,
    setup: dict[str, float],
    timings: dict[str, list[float]],
    cpu: dict[str, list[tuple[float, float]]],
    candidates: list[int],
    load_before: float,
) -> None:
    from bench import common

    load = os.getloadavg()
    print("\nsetup seconds: " + ", ".join(f"{k} {v:.0f}" for k, v in setup.items()))
    print(
        f"\n{args.queries} queries after {args.warmup} warm-up, k={args.k}, "
        f"corpus {args.arguments:,} synthetic arguments; load average {load_before:.1f} before, "
        f"{load[0]:.1f} after\n"
    )
    if candidates:
        print(
            f"candidate premises clustered per query at query time: median "
            f"{statistics.median(candidates):.0f}, max {max(candidates)}\n"
        )
    print(
        "| method | p50 ms | p95 ms | mean ms | max ms | goal p50<=100, p95<=300 "
        "| client CPU ms | Neo4j CPU ms |"
    )
    print("|---|---:|---:|---:|---:|---|---:|---:|")
    for name, values in timings.items():
        ms = [v * 1000 for v in values]
        p50, p95 = common.percentile(ms, 50), common.percentile(ms, 95)
        goal = "baseline" if name == "bm25" else ("met" if p50 <= 100 and p95 <= 300 else "NOT met")
        client_ms = 1000 * statistics.mean(c for c, _ in cpu[name])
        server_ms = 1000 * statistics.mean(s for _, s in cpu[name])
        print(
            f"| {name} | {p50:.0f} | {p95:.0f} | {statistics.mean(ms):.0f} | {max(ms):.0f} "
            f"| {goal} | {client_ms:.0f} | {server_ms:.0f} |"
        )
    print(
        "\nCPU columns: mean CPU time per query of this process (all its threads) and of the "
        "Neo4j process (/proc, 10 ms ticks, so only the mean over many queries is meaningful)."
    )


if __name__ == "__main__":
    sys.exit(main())
