"""Side accuracy: the share of premises a `--stance both` query places on the correct side.

    python -m bench side_accuracy --data ../shared/data [--uri bolt://...] [--json OUT.json]

How premises are judged, the gold sides of ArgKP dev and of the SIGIR-19 dev biased topics, and
the bootstrap interval: :mod:`argkb.eval.side_accuracy` (``argkb eval stance --side-accuracy``
scores the default and the baselines from the same code in the connected database).

Here each benchmark gets its own graph, built through the library as the commands build it
(:mod:`argkb.pipeline`: load, embed, cluster, pagerank) on a throw-away managed Neo4j
(:func:`bench.common.database`; ``--uri`` uses that server instead, which should be empty:
every part is loaded into its one database then). Queries are scoped to the benchmark's
collection as ``argkb eval`` scopes them.

Rankers: ``default`` (:data:`argkb.query.settings.DEFAULT`), ``cross-alignment`` (the default
with ``--alignment cross``: the stance cross-encoder decides for the 12 most credited claims),
``hybrid`` with every claim aligned
(``alignment="always"``), ``pfidf``, ``coreset`` (as the harness's rankers of those names), and
the baselines ``bm25`` and ``cosine`` (:mod:`argkb.retrieve.baselines`), which place a premise by
its data stance towards its own conclusion (asked once with stance pro, once with con). On
ArgKP that conclusion is the topic, so a baseline is right by construction wherever it is judged.

``--sample`` also builds the sample corpus (examples/debates.json) and prints the default's
answer to "Social media does more harm than good", the example issue #28 names.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from argkb.eval.side_accuracy import (
    DRAWS,
    SIDES,
    K,
    Row,
    answerers,
    argkp_topics,
    read_relations,
    score_benchmark,
    sigir19_topics,
    table,
)
from bench.common import REPO, data_parser, database, load_average

SAMPLE_QUERY = "Social media does more harm than good"
ENGINE_RANKERS: dict[str, dict[str, Any]] = {
    "default": {},  # DEFAULT itself
    "cross-alignment": {"alignment": "cross"},  # the default with --alignment cross
    "hybrid": {"ranker": "hybrid", "alignment": "always"},
    "pfidf": {"ranker": "pfidf", "alignment": "always"},
    "coreset": {"ranker": "coreset", "alignment": "always"},
}


# -- graphs ---------------------------------------------------------------------------------------


def build_graph(drv: Any, fmt: str, files: Sequence[Path], embedder: Any) -> dict[str, Any]:
    """Load ``files`` as ``fmt``, embed, cluster and rank, as ``argkb load``, ``embed``,
    ``cluster`` and ``pagerank`` do (rows the loader rejects are skipped, as in ``argkb eval``)."""
    from argkb import pipeline

    loaded = pipeline.load(drv, None, fmt, files, on_error="skip")
    pipeline.embed(drv, None, embedder)
    pipeline.cluster(drv, None)
    pipeline.pagerank(drv, None)
    return {"format": fmt, "arguments": loaded.arguments, "rejected": loaded.rejected}


def run_benchmark(args: argparse.Namespace, name: str, embedders: tuple[Any, Any]) -> list[Row]:
    """Build ``name``'s graph on its own server and score every ranker on it."""
    from argkb.eval.argkp import split_files
    from argkb.eval.sigir19 import COLLECTION, corpus_files

    if name == "argkp-dev":
        root = args.data / "argkp-2021"
        topics, fmt, files, coll = (
            argkp_topics(root),
            "argkp",
            split_files(root, "dev"),
            "argkp:dev:",
        )
    else:
        root = args.data / "webis-sigir19-dev"
        topics = sigir19_topics(root, read_relations())
        fmt, files, coll = "sigir19", corpus_files(root), COLLECTION
    with database(args.uri, f"side-{name}") as drv:
        build_graph(drv, fmt, files, embedders[0])
        answer = answerers(drv, *embedders, ENGINE_RANKERS)
        return score_benchmark(
            name, topics, answer, coll, lambda line: print(line, file=sys.stderr)
        )


def sample_answer(args: argparse.Namespace, embedders: tuple[Any, Any]) -> dict[str, Any]:
    """The default's answer to :data:`SAMPLE_QUERY` on the sample corpus (texts, both sides)."""
    from argkb.query.engine import QueryEngine

    with database(args.uri, "side-sample") as drv:
        build_graph(drv, "argsme", [REPO / "examples" / "debates.json"], embedders[0])
        result = QueryEngine(drv, embedders[1]).query(SAMPLE_QUERY, k=K, stance="both")
    return {
        "query": SAMPLE_QUERY,
        "pro": [c.representative.text for c in result.pro],
        "con": [c.representative.text for c in result.con],
    }


def commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                          capture_output=True, text=True)  # fmt: skip
    return done.stdout.strip() or "?"


def main() -> int:
    parser = data_parser(__doc__)
    parser.add_argument("--json", type=Path, help="also write the rows and per-topic counts")
    parser.add_argument("--benchmarks", nargs="+", default=["argkp-dev", "sigir19-dev"],
                        choices=["argkp-dev", "sigir19-dev"])  # fmt: skip
    parser.add_argument("--sample", action="store_true", help="also answer the sample query")
    args = parser.parse_args()
    from argkb.embed.model import Embedder

    embedders = (Embedder(), Embedder.for_queries())
    rows = [row for name in args.benchmarks for row in run_benchmark(args, name, embedders)]
    sample = sample_answer(args, embedders) if args.sample else None
    print(table(rows))
    print(f"\ncommit {commit()}, load {load_average()}, k = {K} per side, {DRAWS} draws, seed 0")
    if sample is not None:
        for side in SIDES:
            print(f"\n{SAMPLE_QUERY!r}, default, {side.upper()}:")
            print("\n".join(f"  {i}. {text}" for i, text in enumerate(sample[side], start=1)))
    if args.json:
        payload = {"commit": commit(), "load": load_average(), "k": K, "draws": DRAWS,
                   "rows": [asdict(row) for row in rows], "sample": sample}  # fmt: skip
        args.json.write_text(json.dumps(payload, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
