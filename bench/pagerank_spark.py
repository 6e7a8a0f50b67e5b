"""Spark's overhead at small sizes: argument PageRank in SciPy and in Spark (local[2]), same run.

    python -m bench pagerank_spark                      # the test fixture, 100k and 1M edges
    python -m bench pagerank_spark --edges 100000         # the test fixture and 100k edges
    python -m bench pagerank_spark --scipy-units 1000000 3000000 10000000   # SciPy only

Per graph: SciPy (:func:`argkb.rank.pagerank.argument_pagerank`: build and iterate) and Spark
(:func:`argkb.rank.spark.spark_pagerank`: edge list to Parquet, iterate, scores back from
Parquet), alpha 0.85, L1 tol 1e-10, with the iterations of each and the max abs difference of
the scores. The Spark session is started once (timed separately) and shared by both graphs, as
the test does; one untimed 3-iteration Spark run and one SciPy run on the fixture warm up the
JVM and the imports first. Graphs: the fixture of ``tests/unit/test_pagerank_spark.py`` and the
synthetic reuse graph of ``bench/pagerank.py`` (seed 0, its default shape parameters) with the
proportions of its 1M-unit graph: ``edges / 5`` units and ``2 * edges / 5`` arguments.

``--scipy-units`` measures SciPy's compute curve instead, without Spark: per size, in a child
process, the synthetic graph with ``units`` units (``5 * units`` edges, ``2 * units``
arguments), then ``build_argument_transition`` and ``power_iteration`` timed separately, and the
child's peak RSS (graph generation included).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import subprocess
import time
from typing import Any

from bench.common import child


def run(name: str, n: int, conclusions: Any, indptr: Any, premises: Any, spark: Any) -> dict:
    import numpy as np

    from argkb.rank.pagerank import argument_pagerank, unit_edges
    from argkb.rank.spark import spark_pagerank

    clock = time.perf_counter()
    scipy = argument_pagerank(n, conclusions, indptr, premises, tol=1e-10)
    scipy_s = time.perf_counter() - clock
    clock = time.perf_counter()
    edges = unit_edges(n, conclusions, indptr, premises)
    result = spark_pagerank(n, edges.sources, edges.targets, edges.weights, tol=1e-10, spark=spark)
    spark_s = time.perf_counter() - clock
    return {
        "graph": name,
        "units": n,
        "edges": int(edges.sources.size),
        "scipy_s": round(scipy_s, 4),
        "scipy_iterations": scipy.iterations,
        "spark_s": round(spark_s, 2),
        "spark_iterations": result.iterations,
        "spark_s_per_iteration": round(spark_s / max(result.iterations, 1), 3),
        "max_abs_diff": float(np.abs(result.scores - scipy.scores).max()),
    }


def scipy_compute(units: int, seed: int) -> dict[str, Any]:
    """Build and iterate SciPy's adapted PageRank on the synthetic graph of ``units`` units."""
    import resource

    from argkb.rank.pagerank import build_argument_transition, power_iteration
    from bench.pagerank import synthetic

    graph = synthetic(
        units, 5 * units, 2 * units, seed,
        claim_share=0.2, reuse_rate=0.3, conclusion_zipf=0.8, reuse_zipf=1.1,
    )  # fmt: skip
    clock = time.perf_counter()
    transition = build_argument_transition(units, graph.conclusions, graph.indptr, graph.premises)
    build_s = time.perf_counter() - clock
    clock = time.perf_counter()
    result = power_iteration(transition, alpha=0.85, tol=1e-10)
    iterate_s = time.perf_counter() - clock
    return {
        "units": units,
        "edges": graph.edges,
        "build_s": round(build_s, 3),
        "iterate_s": round(iterate_s, 3),
        "iterations": result.iterations,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "load_average": os.getloadavg(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--edges", type=int, nargs="+", default=[100_000, 1_000_000], help="synthetic graph sizes"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scipy-units", type=int, nargs="+", help="SciPy compute curve only")
    parser.add_argument("--one-scipy", type=int, help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args(argv)
    if args.one_scipy:
        print(json.dumps(scipy_compute(args.one_scipy, args.seed)), flush=True)
        return 0
    if args.scipy_units:
        for units in args.scipy_units:
            one = child("bench.pagerank_spark", "--one-scipy", str(units), "--seed", str(args.seed))
            subprocess.run(**one, check=True)
        return 0

    from argkb.rank.pagerank import ConvergenceError, argument_pagerank, unit_edges
    from argkb.rank.spark import spark_pagerank, spark_session
    from bench.pagerank import synthetic

    # by name, so mypy does not see the test module under a second name
    fixture_graph = importlib.import_module("tests.unit.test_pagerank_spark").fixture_graph

    graphs = {
        f"synthetic {edges:,} edges": synthetic(
            edges // 5,
            edges,
            2 * edges // 5,
            args.seed,
            claim_share=0.2,
            reuse_rate=0.3,
            conclusion_zipf=0.8,
            reuse_zipf=1.1,
        )
        for edges in args.edges
    }
    print(json.dumps({"load_average": os.getloadavg()}), flush=True)
    clock = time.perf_counter()
    with spark_session() as spark:
        start_s = time.perf_counter() - clock
        print(json.dumps({"spark_session_start_s": round(start_s, 2)}), flush=True)
        n, conclusions, indptr, premises = fixture_graph()
        argument_pagerank(n, conclusions, indptr, premises)  # warm-up, untimed
        edges = unit_edges(n, conclusions, indptr, premises)
        with contextlib.suppress(ConvergenceError):
            spark_pagerank(n, edges.sources, edges.targets, max_iter=3, spark=spark)
        print(json.dumps(run("fixture", n, conclusions, indptr, premises, spark)), flush=True)
        for name, graph in graphs.items():
            row = run(name, graph.n, graph.conclusions, graph.indptr, graph.premises, spark)
            print(json.dumps(row), flush=True)
    print(json.dumps({"load_average": os.getloadavg()}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
