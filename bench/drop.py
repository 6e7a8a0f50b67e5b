"""``argkb db drop`` with and without building the full-text indexes again.

    python -m bench drop --arguments 100000 --added 1000

A drop builds argkb's full-text indexes again so that BM25 scores no longer count the dropped
corpus's texts (Lucene keeps deleted documents in its statistics until a merge;
tests/integration/test_drop_bm25.py). This measures what that costs. One synthetic args.me
corpus (synthcorpus, as bench/incremental.py makes it) is split into A (``arguments``) and B
(``added``); in a throw-away Neo4j under /tmp, A and B are loaded, then B is dropped twice
(loaded again before each): without the rebuild (``fulltext=False``, the baseline, as a drop
was before) and as ``argkb db drop`` does it, twice each. No embeddings are needed for a drop.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path


def parse_args() -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arguments", type=int, default=100_000, help="arguments in corpus A")
    parser.add_argument("--added", type=int, default=1_000, help="arguments in corpus B (dropped)")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--pagecache", default="1g")
    parser.add_argument("--keep", action="store_true", help="keep the instance folder")
    # bench.incremental.corpora reads these two: the corpora are always generated here
    parser.set_defaults(corpus_a=None, corpus_b=None)
    return parser, parser.parse_args()


def main() -> int:
    parser, args = parse_args()

    from argkb import pipeline
    from argkb.db.schema import init_schema
    from argkb.ingest_drop import drop_corpus
    from bench import common
    from bench.incremental import corpora, count_units

    load_start = os.getloadavg()[0]
    work = Path(f"/tmp/argkb-bench-drop-{os.getpid()}")
    work.mkdir(parents=True, exist_ok=True)
    path_a, path_b, _ = corpora(parser, args, work)
    rows = []
    with common.instance("drop", keep=args.keep, heap=args.heap,
                         pagecache=args.pagecache) as inst:  # fmt: skip
        driver = inst.driver()
        try:
            init_schema(driver, dimensions=384)
            pipeline.load(driver, None, "argsme", [path_a], init=False)
            units_a = count_units(driver)
            # a first drop warms the server (its plans and caches) and is not counted; then
            # the two ways alternate (ABBA), so that neither gains from going second
            seconds: dict[bool, list[float]] = {False: [], True: []}
            rebuilt: list[str] = []
            for fulltext in (None, False, True, True, False):
                summary = pipeline.load(driver, None, "argsme", [path_b], init=False)
                units = count_units(driver)
                clock = time.perf_counter()
                stored = drop_corpus(driver, summary.corpus, fulltext=bool(fulltext))
                took = time.perf_counter() - clock
                assert count_units(driver) == units_a, "the drop left units of B"
                if fulltext is not None:
                    seconds[fulltext].append(took)
                    rebuilt = rebuilt or stored["rebuilt"]
                print(f"drop, fulltext={fulltext}: {took:.1f} s", flush=True)
            for label, fulltext in (("without the rebuild (before)", False),
                                    ("with the rebuild (argkb db drop)", True)):  # fmt: skip
                runs = " / ".join(f"{took:.1f}" for took in seconds[fulltext])
                indexes = ", ".join(rebuilt) if fulltext else "-"
                rows.append((label, f"{units:,}", runs, indexes))
        finally:
            driver.close()
    for path in (work / "all.json", path_a, path_b):
        path.unlink(missing_ok=True)
    work.rmdir()
    print()
    print(f"{args.arguments:,} + {args.added:,} arguments, B dropped; load average "
          f"{load_start:.1f} before, {os.getloadavg()[0]:.1f} after")  # fmt: skip
    headers = ["drop of B", "units before", "seconds (2 runs)", "indexes rebuilt"]
    print(common.markdown_table(headers, rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
