"""Incremental update against a full rebuild (issue 16): a second corpus added to a processed graph.

    python bench/incremental.py --arguments 10000 --added 1000

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

The table has seconds per stage both ways, and how close the incremental clusters are to the
rebuilt ones (adjusted Rand index over all units, scikit-learn), and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from argkb.cluster.store import Kind

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


def main() -> int:
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
    args = parser.parse_args()

    import common

    from argkb.cluster.store import cluster_units, link_same_as
    from argkb.cluster.update import pending_units, update_clusters, update_same_as
    from argkb.db.schema import init_schema
    from argkb.embed.model import Embedder
    from argkb.embed.store import embed_negations, embed_units
    from argkb.ingest import load_records
    from argkb.loaders import reader
    from argkb.rank.store import run_pagerank

    common.repo_on_path()
    from sklearn.metrics import adjusted_rand_score

    from synthcorpus import Shape, write_json

    load_start = os.getloadavg()
    work = Path(f"/tmp/argkb-bench-incremental-{os.getpid()}")
    work.mkdir(parents=True, exist_ok=True)
    whole, path_a, path_b = work / "all.json", work / "a.json", work / "b.json"
    if (args.corpus_a is None) != (args.corpus_b is None):
        parser.error("--corpus-a and --corpus-b go together")
    generated = args.corpus_a is None
    if generated:
        shape = Shape(sentences_median=1.5, single_sentence_share=0.5, max_sentences=6)
        write_json(whole, args.arguments + args.added, seed=args.seed, shape=shape)
        split_corpus(whole, args.arguments, path_a, path_b)
    else:
        path_a, path_b = args.corpus_a, args.corpus_b
        args.arguments, args.added = (
            len(json.loads(path.read_text())["arguments"]) for path in (path_a, path_b)
        )

    timings: dict[str, dict[str, float]] = {"incremental": {}, "rebuild": {}}
    notes: dict[str, object] = {}

    def timed(mode: str, stage: str, work_fn: Callable[[], T]) -> T:
        clock = time.perf_counter()
        result = work_fn()
        timings[mode][stage] = timings[mode].get(stage, 0.0) + time.perf_counter() - clock
        print(f"{mode:<12} {stage:<9} {timings[mode][stage]:8.1f} s", flush=True)
        return result

    with common.instance("incremental", keep=args.keep, heap=args.heap,
                         pagecache=args.pagecache) as inst:  # fmt: skip
        driver = inst.driver()
        try:
            embedder = Embedder()
            init_schema(driver, dimensions=embedder.dimensions)
            # 1. corpus A, processed in full
            clock = time.perf_counter()
            load_records(driver, "argsme", [path_a], reader("argsme")([path_a]))
            embed_units(driver, embedder)
            embed_negations(driver, embedder)
            for kind in ("claim", "premise"):
                cluster_units(driver, kind=kind)
            link_same_as(driver)
            run_pagerank(driver)
            notes["setup A (s)"] = time.perf_counter() - clock
            units_a = driver.execute_query("MATCH (u:Unit) RETURN count(u) AS n").records[0]["n"]

            # 2. corpus B, then each stage as a user runs it after a load
            clock = time.perf_counter()
            load_records(driver, "argsme", [path_b], reader("argsme")([path_b]))
            notes["load B (s)"] = time.perf_counter() - clock
            units = driver.execute_query("MATCH (u:Unit) RETURN count(u) AS n").records[0]["n"]
            notes["units A"], notes["units A+B"] = units_a, units
            embedded = timed("incremental", "embed", lambda: embed_units(driver, embedder).units)
            timed("incremental", "embed", lambda: embed_negations(driver, embedder))
            notes["embedded (incremental)"] = embedded
            kinds: tuple[Kind, ...] = ("claim", "premise")
            new = {kind: pending_units(driver, None, kind)[0].tolist() for kind in kinds}
            runs = [
                timed("incremental", "cluster", partial(update_clusters, driver, kind=kind))
                for kind in kinds
            ]
            timed("incremental", "cluster", lambda: update_same_as(
                driver, claims=new["claim"], premises=new["premise"]))  # fmt: skip
            for run in runs:
                notes[f"{run.kind}s: mode, new, joined, new clusters, cf refreshed"] = (
                    f"{run.mode}, {run.new_units:,}, {run.joined:,}, {run.new_clusters:,}, "
                    f"{run.touched:,}"
                )
            incremental_clusters = memberships(driver)
            warm = timed("incremental", "pagerank", lambda: run_pagerank(driver, warm=True))

            # 3. the same graph from scratch: the baseline
            rebuilt = timed(
                "rebuild", "embed", lambda: embed_units(driver, embedder, all_units=True).units
            )
            timed("rebuild", "embed", lambda: embed_negations(driver, embedder, all_units=True))
            notes["embedded (rebuild)"] = rebuilt
            for kind in kinds:
                timed("rebuild", "cluster", partial(cluster_units, driver, kind=kind))
            timed("rebuild", "cluster", lambda: link_same_as(driver))
            full_clusters = memberships(driver)
            cold = timed("rebuild", "pagerank", lambda: run_pagerank(driver))
            notes["pagerank iterations warm / cold"] = f"{warm.iterations} / {cold.iterations}"
            for kind in ("claim", "premise"):
                keys = sorted(k for k in full_clusters if k[1] == kind)
                ari = adjusted_rand_score([full_clusters[k] for k in keys],
                                          [incremental_clusters[k] for k in keys])  # fmt: skip
                notes[f"ARI incremental vs rebuilt {kind} clusters"] = f"{ari:.4f}"
        finally:
            driver.close()

    load_end = os.getloadavg()
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
          f"{load_start[0]:.1f} before, {load_end[0]:.1f} after")  # fmt: skip
    print(common.markdown_table(["stage", "incremental (s)", "rebuild (s)", "speed-up"], rows))
    print()
    for key, value in notes.items():
        print(f"- {key}: {value:.1f}" if isinstance(value, float) else f"- {key}: {value}")
    if generated:
        for path in (whole, path_a, path_b):
            path.unlink(missing_ok=True)
    work.rmdir()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
