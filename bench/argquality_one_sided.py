"""Webis-ArgQuality-20 asked one side at a time: does a ranker that covers a given claim's
premises (the coreset) help where the query is a claim of the graph and one side is asked?

    python -m bench argquality_one_sided --data ../shared/data [--query long|short] \\
        [--ranker default --ranker coreset ...] [--out DIR]

Each topic becomes two queries, ``<topic>-pro`` and ``<topic>-con``, with the topic's query
text and that stance (``argkb query --stance pro``); a premise keeps its judged grade for the
query of its own stance (the data's Pro / Con) and counts 0 for the other. Everything else is
``argkb eval argquality`` (load, embed, cluster, the baselines with the query's stance, the
harness's metrics and per-query comparisons), on the managed local server (or ``NEO4J_URI``).
With the long query every premise's conclusion is the query itself, as on ArgKP, where each
argument's conclusion is the topic and the coreset is strongest; so this asks whether the
coreset's lead there comes from the setting (a claim and a side given) or from ArgKP's data
(every candidate of the topic relevant). ArgQuality's stance labels agree with a blind reading
on .60 of the arguments (docs/results/stance.md): the sides are noisy for every ranker alike.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def one_sided(benchmark: Any, stance_of: dict[str, str]) -> Any:
    """``benchmark`` with each query asked once per side, judged on that side's premises."""
    from argkb.eval.harness import Benchmark, Query

    queries, qrels, doc_ids = [], {}, {}
    for query in benchmark.queries:
        for side in ("pro", "con"):
            qid = f"{query.qid}-{side}"
            queries.append(Query(qid, query.text, side, query.collection))
            qrels[qid] = {doc: grade if stance_of.get(doc) == side else 0.0
                          for doc, grade in benchmark.qrels[query.qid].items()}  # fmt: skip
            doc_ids[qid] = benchmark.doc_ids[query.qid]
    return Benchmark(f"{benchmark.name}-one-sided", queries, qrels, None, doc_ids,
                     benchmark.fallback_doc_ids, benchmark.notes)  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    import argkb.eval.argquality as argquality
    from argkb.cli.app import Connection
    from argkb.embed.model import Embedder
    from argkb.eval.harness import HarnessOptions

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="../shared/data")
    parser.add_argument("--query", choices=("long", "short"), default="long")
    parser.add_argument("--ranker", action="append", help="default: default, coreset, pfidf")
    parser.add_argument("--out", type=Path, default=Path("argkb-eval/argquality-one-sided"))
    args = parser.parse_args(argv)
    both_sides = argquality.build_benchmark

    def build(data: Any, query: Any = "long", **keywords: Any) -> Any:
        stance_of = {p.aid: p.stance for premises in data.premises.values() for p in premises}
        return one_sided(both_sides(data, query, **keywords), stance_of)

    argquality.build_benchmark = build  # run_argquality builds its benchmark through it
    conn = Connection(None, None, None, None)
    try:
        report = argquality.run_argquality(
            conn.driver(), args.data / "webis-argquality-20", database=conn.database,
            query=args.query,
            options=HarnessOptions(rankers=args.ranker or ["default", "coreset", "pfidf"],
                                   out=args.out, make_embedder=Embedder),
        )  # fmt: skip
    finally:
        argquality.build_benchmark = both_sides
        conn.close()
    print(Path(report.files["results_md"]).read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
