"""Load every reference corpus twice into a fresh Neo4j and report the counts (docs/corpora.md).

    python -m bench corpora --data ../shared/data [--uri bolt://127.0.0.1:7711]

Without --uri a throw-away managed instance is started on a free port and stopped at the end.
The second load of each corpus must report `already loaded` and leave every count unchanged;
the script checks the whole graph's node and relationship counts before and after it.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from argkb.ingest import OnError

CORPORA: list[tuple[str, str, OnError]] = [
    # (format, path under --data, on_error)
    ("aif", "qt30-aif", "fail"),
    ("aif", "microtexts-aif/cases", "fail"),
    ("argkp", "argkp-2021", "fail"),
    ("argquality", "webis-argquality-20", "fail"),
    ("argrank", "webis-argrank-17", "fail"),
    ("sigir19", "webis-sigir19-dev", "fail"),
]


def graph_totals(driver) -> tuple[int, int]:
    nodes = driver.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"]
    rels = driver.execute_query("MATCH ()-[r]->() RETURN count(r) AS n").records[0]["n"]
    return nodes, rels


def main() -> int:
    from bench.common import data_parser, database

    args = data_parser(__doc__).parse_args()

    from argkb.db.schema import init_schema
    from argkb.ingest import load_records
    from argkb.loaders import reader

    rows = []
    with database(args.uri, "corpora") as driver:
        init_schema(driver)
        for fmt, sub, on_error in CORPORA:
            path = args.data / sub
            started = time.perf_counter()
            first = load_records(
                driver,
                fmt,
                [path],
                reader(fmt)([path]),
                on_error=on_error,
                reject_report=Path(tempfile.mkstemp(suffix=".jsonl")[1]),
            )
            seconds = time.perf_counter() - started
            before = graph_totals(driver)
            second = load_records(driver, fmt, [path], reader(fmt)([path]), on_error=on_error)
            after = graph_totals(driver)
            same = (
                second.already_loaded
                and before == after
                and all(
                    getattr(first, key) == getattr(second, key)
                    for key in ("arguments", "units", "sources", "reuse_edges", "rejected")
                )
            )
            rows.append((f"{fmt} {sub}", first, seconds, same))
        totals = graph_totals(driver)
    print(
        "| corpus | arguments | units | sources | reuse edges | links | rejected | load s "
        "| second load unchanged |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, s, seconds, same in rows:
        print(
            f"| {name} | {s.arguments:,} | {s.units:,} | {s.sources:,} | {s.reuse_edges:,} "
            f"| {s.links:,} | {s.rejected:,} | {seconds:.1f} | {'yes' if same else 'NO'} |"
        )
    print(f"\nwhole graph after all loads: {totals[0]:,} nodes, {totals[1]:,} relationships")
    return 0 if all(same for *_, same in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
