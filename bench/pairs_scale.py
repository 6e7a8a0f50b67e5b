"""Sentences at scale: splitting and indexing a 100k-argument graph, and `argkb query --pairs`
latency there, the baseline timed in the same run.

    python -m bench pairs_scale --arguments 100000 [--queries 200] [--warmup 20]

Reuses ``bench/query.py``'s synthetic args.me corpus and its managed instance in ``--workdir``
(the same default folder, so a graph built by either is reused): loads and embeds it where the
instance lacks it, then

1. **splitting and indexing**: ``argkb sentences`` (:func:`argkb.sentences.store.split_premises`)
   over every premise, timed, with the sentences written, the client's peak RSS and the Neo4j
   store's growth; then the staleness count ``argkb status`` runs, and a second run with
   nothing to do;
2. **latency**: ``--queries`` distinct queries (after ``--warmup`` unmeasured ones), each answered
   by ``answer_pairs`` with the shipped pipeline (``argkb query --pairs``), with cosine pairing,
   and with the baseline (BM25 top sentence + next; no model), rotated so that no method always
   finds the page cache warmed by another. End to end in the Python process: query embedding,
   every Cypher round trip, pairing and the sources.

The synthetic texts are short (``--sentences 1.5`` median, as bench/query.py: embedding 100k
args.me-length posts on a 2-core CPU takes hours), so the sentence count per premise is lower
than on args.me; ``--sentences 8 --no-embed --workdir DIR`` builds an args.me-like corpus in
another instance and measures the split without embedding it (the pipeline then answers with
its premise features at 0: its reads and the query's embedding are timed, not its ranking).
Goals (issue): p50 <= 150 ms, p95 <= 400 ms with ``--pairs``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any


def parse_args() -> argparse.Namespace:
    from bench.query import corpus_parser

    parser = corpus_parser(__doc__.splitlines()[0])
    parser.add_argument(
        "--no-embed",
        action="store_true",
        help="leave the units without vectors (args.me-length texts take hours to embed on a "
        "2-core CPU): splitting is measured as always, the pipeline answers with its premise "
        "features at 0; use another --workdir than the embedded graph's",
    )
    return parser.parse_args()


def prepare(driver: Any, corpus: Path, setup: dict[str, float], *, embed: bool = True) -> None:
    """Load and embed (only what the instance lacks), as bench/query.py without clustering."""
    from argkb import pipeline
    from argkb.db.schema import init_schema
    from argkb.embed.model import Embedder
    from argkb.embed.store import count_pending

    embedder = Embedder()
    init_schema(driver, dimensions=embedder.dimensions)
    clock = time.perf_counter()
    summary = pipeline.load(driver, None, "argsme", [corpus], init=False)
    setup["load"] = time.perf_counter() - clock
    print(f"corpus: {summary.arguments:,} arguments, {summary.units:,} units", flush=True)
    if embed and count_pending(driver):
        clock = time.perf_counter()
        run = pipeline.embed(driver, None, embedder)
        setup["embed"] = time.perf_counter() - clock
        print(f"embedded {run.units:,} units in {run.seconds:.0f} s", flush=True)


def store_mib(home: Path) -> float:
    data = home / "data" / "databases" / "neo4j"
    return sum(f.stat().st_size for f in data.rglob("*") if f.is_file()) / 2**20


def split(driver: Any, home: Path) -> list[list[str]]:
    """Time ``split_premises`` from scratch (the sentences of an earlier run deleted first), the
    status count and an idle re-run."""
    from argkb.sentences.store import count_pending, sentence_counts, split_premises
    from bench import common

    with driver.session() as session:
        for statement in (
            "MATCH (s:Sentence|SentenceTerm|SentenceStats) "
            "CALL (s) { DETACH DELETE s } IN TRANSACTIONS OF 10000 ROWS",
            "MATCH (p:Premise) WHERE p.split_chars IS NOT NULL "
            "CALL (p) { REMOVE p.split_chars } IN TRANSACTIONS OF 10000 ROWS",
        ):
            session.run(statement).consume()
    before = store_mib(home)
    rss_before = common.rss_peak_mib()
    clock = time.perf_counter()
    first = split_premises(driver)
    seconds = time.perf_counter() - clock
    driver.execute_query("CALL db.awaitIndexes(600)")
    indexed = time.perf_counter() - clock
    counts = sentence_counts(driver)
    clock = time.perf_counter()
    count_pending(driver)
    status_ms = 1000 * (time.perf_counter() - clock)
    clock = time.perf_counter()
    again = split_premises(driver)
    idle = time.perf_counter() - clock
    return [
        ["premises split", f"{first.premises:,}"],
        ["sentences written", f"{counts.get('sentences', 0):,}"],
        [
            "split and write, s",
            f"{seconds:.0f} ({first.premises / seconds:.0f} premises/s; "
            f"splitting in Python {first.split_seconds:.0f})",
        ],
        ["... until the indexes are online, s", f"{indexed:.0f}"],
        ["client peak RSS, MiB", f"{common.rss_peak_mib():.0f} (before: {rss_before:.0f})"],
        ["Neo4j store growth, MiB", f"{store_mib(home) - before:.0f}"],
        ["status count (pending premises), ms", f"{status_ms:.0f}"],
        ["a second run, nothing to do, s", f"{idle:.1f} ({again.premises} split)"],
    ]


def latency(driver: Any, args: argparse.Namespace) -> dict[str, list[float]]:
    from argkb.embed.model import Embedder
    from argkb.sentences.answer import answer_pairs
    from argkb.sentences.pipeline import BASELINE, DEFAULT
    from bench import common

    queries = common.benchmark_queries(driver, args.queries + args.warmup, args.seed,
                                       embedded=not args.no_embed)  # fmt: skip
    asker = Embedder.for_queries(cache=False)
    methods = {
        "argkb query --pairs (the pipeline)": DEFAULT,
        "the pipeline with cosine pairing": replace(DEFAULT, pairing="cosine"),
        "BM25 top sentence + next (baseline)": BASELINE,
    }
    timings: dict[str, list[float]] = {name: [] for name in methods}
    names = list(methods)
    for position, text in enumerate(queries):
        turn = position % len(names)
        for name in names[turn:] + names[:turn]:
            clock = time.perf_counter()
            answer_pairs(driver, text, k=args.k, settings=methods[name], embedder=asker)
            if position >= args.warmup:
                timings[name].append(time.perf_counter() - clock)
    return timings


def main() -> int:
    args = parse_args()
    from argkb.blas import one_blas_thread

    one_blas_thread()
    from bench import common
    from bench.query import synthetic_corpus

    setup: dict[str, float] = {}
    corpus = synthetic_corpus(args, setup)
    inst = common.reuse_instance(args.workdir / "instance", heap=args.heap,
                                 pagecache=args.pagecache)  # fmt: skip
    driver = inst.driver()
    try:
        prepare(driver, corpus, setup, embed=not args.no_embed)
        load_before = os.getloadavg()[0]
        rows = split(driver, inst.home)
        timings = latency(driver, args)
    finally:
        driver.close()
        inst.stop()
    print("\nsetup seconds: " + ", ".join(f"{k} {v:.0f}" for k, v in setup.items()))
    print(f"\n## splitting {args.arguments:,} synthetic arguments "
          f"(load average {load_before:.1f} before)\n")  # fmt: skip
    print(common.markdown_table(["measure", "value"], rows, "lr"))
    print(f"\n## --pairs latency: {args.queries} queries after {args.warmup} warm-up, k={args.k}; "
          f"load average {os.getloadavg()[0]:.1f} after\n")  # fmt: skip
    table = []
    for name, values in timings.items():
        ms = [v * 1000 for v in values]
        p50, p95 = common.percentile(ms, 50), common.percentile(ms, 95)
        goal = "baseline" if "baseline" in name else (
            "met" if p50 <= 150 and p95 <= 400 else "NOT met")  # fmt: skip
        table.append([name, f"{p50:.0f}", f"{p95:.0f}", f"{statistics.mean(ms):.0f}",
                      f"{max(ms):.0f}", goal])  # fmt: skip
    print(common.markdown_table(["method", "p50 ms", "p95 ms", "mean ms", "max ms",
                                 "goal p50<=150, p95<=400"], table, "lrrrrl"))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
