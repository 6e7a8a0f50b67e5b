"""Incremental update against a full rebuild (issue 16): a second corpus added to a processed graph.

    python -m bench incremental --arguments 10000 --added 1000

One synthetic args.me corpus of ``arguments + added`` arguments (synthcorpus, short texts as in
bench/query.py) is split in two: A, the first ``arguments``, and B, the rest (B continues some of
A's debates and starts new ones). In a throw-away Neo4j under /tmp:

1. A is loaded and processed in full: embed (units and claims' negations), cluster (claims,
   premises, SAME_AS), PageRank;
2. B is loaded, then each stage is timed as a user runs it after a load: ``argkb embed`` (only
   units without a vector), ``argkb cluster`` (incremental: only units without a cluster),
   ``argkb pagerank --warm``;
3. on the same A + B graph, the baseline in the same run: each stage from scratch (every unit and
   negation embedded again, clusters rebuilt, PageRank from the uniform start).

Every stage is the :mod:`argkb.pipeline` function that its command runs.

The table has seconds per stage both ways, and how close the incremental clusters are to the
rebuilt ones (adjusted Rand index over all units, scikit-learn), and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import neo4j

    from argkb.embed.model import Embedder

T = TypeVar("T")


def split_corpus(source: Path, first: int, out_a: Path, out_b: Path) -> tuple[int, int]:
    arguments = json.loads(source.read_text())["arguments"]
    out_a.write_text(json.dumps({"arguments": arguments[:first]}))
    out_b.write_text(json.dumps({"arguments": arguments[first:]}))
    return first, len(arguments) - first


def memberships(driver: object) -> dict[tuple[int, str], str]:
    records = driver.execute_query(  # type: ignore[attr-defined]
        "MATCH (u:Unit)-[:IN_CLUSTER]->(c:Cluster) RETURN id(u) AS u, c.kind AS kind, c.cid AS cid"
    ).records
    return {(r["u"], r["kind"]): r["cid"] for r in records}


def parse_args() -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arguments", type=int, default=10_000, help="arguments in corpus A")
    parser.add_argument("--added", type=int, default=1_000, help="arguments in corpus B")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--pagecache", default="1g")
    parser.add_argument("--keep", action="store_true", help="keep the instance folder")
    parser.add_argument(
        "--corpus-a",
        type=Path,
        help="args.me JSON file to use as corpus A instead of generating one (with --corpus-b; "
        "e.g. bench/query.py's corpus, whose vectors the embedding cache already holds)",
    )
    parser.add_argument("--corpus-b", type=Path, help="args.me JSON file to add as corpus B")
    return parser, parser.parse_args()


def corpora(
    parser: argparse.ArgumentParser, args: argparse.Namespace, work: Path
) -> tuple[Path, Path, bool]:
    """Corpus A and B: generated and split (then ``True``), or the files given; sets
    ``args.arguments`` and ``args.added`` to their sizes."""
    from synthcorpus import Shape, write_json

    whole, path_a, path_b = work / "all.json", work / "a.json", work / "b.json"
    if (args.corpus_a is None) != (args.corpus_b is None):
        parser.error("--corpus-a and --corpus-b go together")
    if args.corpus_a is None:
        shape = Shape(sentences_median=1.5, single_sentence_share=0.5, max_sentences=6)
        write_json(whole, args.arguments + args.added, seed=args.seed, shape=shape)
        split_corpus(whole, args.arguments, path_a, path_b)
        return path_a, path_b, True
    args.arguments, args.added = (
        len(json.loads(path.read_text())["arguments"]) for path in (args.corpus_a, args.corpus_b)
    )
    return args.corpus_a, args.corpus_b, False


class Stages:
    """Seconds per (mode, stage), summed over the calls of a stage, printed as they come."""

    def __init__(self) -> None:
        self.timings: dict[str, dict[str, float]] = {"incremental": {}, "rebuild": {}}

    def timed(self, mode: str, stage: str, work_fn: Callable[[], T]) -> T:
        clock = time.perf_counter()
        result = work_fn()
        seconds = self.timings[mode].get(stage, 0.0) + time.perf_counter() - clock
        self.timings[mode][stage] = seconds
        print(f"{mode:<12} {stage:<9} {seconds:8.1f} s", flush=True)
        return result


def count_units(driver: neo4j.Driver) -> int:
    return int(driver.execute_query("MATCH (u:Unit) RETURN count(u) AS n").records[0]["n"])


def measure(
    driver: neo4j.Driver, embedder: Embedder, path_a: Path, path_b: Path
) -> tuple[Stages, dict[str, Any]]:
    """Steps 1 to 3 of the module's docstring on one graph: the stage timings and notes."""
    from sklearn.metrics import adjusted_rand_score

    from argkb import pipeline
    from argkb.db.schema import init_schema

    stages = Stages()
    notes: dict[str, Any] = {}
    timed = stages.timed
    init_schema(driver, dimensions=embedder.dimensions)
    # 1. corpus A, processed in full
    clock = time.perf_counter()
    pipeline.load(driver, None, "argsme", [path_a], init=False)  # the schema is made above
    pipeline.embed(driver, None, embedder)
    pipeline.cluster(driver, None, rebuild=True)
    pipeline.pagerank(driver, None)
    notes["setup A (s)"] = time.perf_counter() - clock
    units_a = count_units(driver)

    # 2. corpus B, then each stage as a user runs it after a load
    clock = time.perf_counter()
    pipeline.load(driver, None, "argsme", [path_b], init=False)
    notes["load B (s)"] = time.perf_counter() - clock
    notes["units A"], notes["units A+B"] = units_a, count_units(driver)
    embedded = timed("incremental", "embed", lambda: pipeline.embed(driver, None, embedder))
    notes["embedded (incremental)"] = embedded.units
    clustered = timed("incremental", "cluster", lambda: pipeline.cluster(driver, None))
    for run in clustered.runs:
        notes[f"{run.kind}s: mode, new, joined, new clusters, cf refreshed"] = (
            f"{run.mode}, {run.new_units:,}, {run.joined:,}, {run.new_clusters:,}, {run.touched:,}"
        )
    incremental_clusters = memberships(driver)
    warm = timed("incremental", "pagerank", lambda: pipeline.pagerank(driver, None, warm=True))

    # 3. the same graph from scratch: the baseline
    rebuilt = timed("rebuild", "embed",
                    lambda: pipeline.embed(driver, None, embedder, all_units=True))  # fmt: skip
    notes["embedded (rebuild)"] = rebuilt.units
    timed("rebuild", "cluster", lambda: pipeline.cluster(driver, None, rebuild=True))
    full_clusters = memberships(driver)
    cold = timed("rebuild", "pagerank", lambda: pipeline.pagerank(driver, None))
    notes["pagerank iterations warm / cold"] = f"{warm.iterations} / {cold.iterations}"
    for kind in ("claim", "premise"):
        keys = sorted(k for k in full_clusters if k[1] == kind)
        ari = adjusted_rand_score([full_clusters[k] for k in keys],
                                  [incremental_clusters[k] for k in keys])  # fmt: skip
        notes[f"ARI incremental vs rebuilt {kind} clusters"] = f"{ari:.4f}"
    return stages, notes


def report(
    args: argparse.Namespace,
    timings: dict[str, dict[str, float]],
    notes: dict[str, Any],
    loads: tuple[float, float],
) -> None:
    from bench import common

    rows = []
    for stage in ("embed", "cluster", "pagerank"):
        inc, full = timings["incremental"][stage], timings["rebuild"][stage]
        rows.append((stage, f"{inc:.1f}", f"{full:.1f}", f"{full / inc:.1f}x"))
    total_inc = sum(timings["incremental"].values())
    total_full = sum(timings["rebuild"].values())
    rows.append(
        ("total", f"{total_inc:.1f}", f"{total_full:.1f}", f"{total_full / total_inc:.1f}x")
    )
    print()
    print(f"{args.arguments:,} + {args.added:,} arguments; load average "
          f"{loads[0]:.1f} before, {loads[1]:.1f} after")  # fmt: skip
    print(common.markdown_table(["stage", "incremental (s)", "rebuild (s)", "speed-up"], rows))
    print()
    for key, value in notes.items():
        print(f"- {key}: {value:.1f}" if isinstance(value, float) else f"- {key}: {value}")


def main() -> int:
    parser, args = parse_args()

    from argkb.embed.model import Embedder
    from bench import common

    load_start = os.getloadavg()
    work = Path(f"/tmp/argkb-bench-incremental-{os.getpid()}")
    work.mkdir(parents=True, exist_ok=True)
    path_a, path_b, generated = corpora(parser, args, work)
    with common.instance("incremental", keep=args.keep, heap=args.heap,
                         pagecache=args.pagecache) as inst:  # fmt: skip
        driver = inst.driver()
        try:
            stages, notes = measure(driver, Embedder(), path_a, path_b)
        finally:
            driver.close()
    report(args, stages.timings, notes, (load_start[0], os.getloadavg()[0]))
    if generated:
        for path in (work / "all.json", path_a, path_b):
            path.unlink(missing_ok=True)
    work.rmdir()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
