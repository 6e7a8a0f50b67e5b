"""The tables, notes and goal lines of ``python -m bench ingest``.

``results`` holds the runs by key: ``a`` (argkb's loader, whole corpus), ``a_small`` and ``b``
(argkb and the naive loop on the subset) and ``c`` (CSV + neo4j-admin import), each as
:mod:`bench.ingest` measured it; ``memory`` the traced runs of (a), smallest corpus first.
"""

from __future__ import annotations

from typing import Any

from bench.common import fmt_float, fmt_int, load_average, markdown_table

GOAL_RATE = 15_000  # elements per second, argkb's loader
GOAL_ADMIN_FACTOR = 5  # argkb within 5x of neo4j-admin import
GOAL_FLAT = 1.5  # peak traced memory may grow at most this much from the smallest to largest size

Memory = list[tuple[int, dict[str, Any]]]


def _rate(elements: float, seconds: float) -> float:
    return elements / seconds if seconds > 0 else float("nan")


def _elements(r: dict[str, Any]) -> int:
    return int(r["nodes"]) + int(r["relationships"])


def report(results: dict[str, dict[str, Any]], memory: Memory) -> None:
    """Print everything: the runs, (a)'s phases, notes, goals, the load average at the end."""
    a, c = results["a"], results.get("c")
    c_rate = _rate(_elements(c), c["import_seconds"]) if c else None
    a_rate = _rate(_elements(a), a["wall"])
    print("\n" + runs_table(results, memory, c_rate))
    print("\nphases of (a):\n")
    print(phases_table(a))
    print("\nnotes:")
    for line in notes(results, memory):
        print(line)
    print("\ngoals:")
    for line in goals(a_rate, c_rate, memory):
        print(line)
    print(f"\nload average at end (1/5/15 min): {load_average()}")


def runs_table(results: dict[str, dict[str, Any]], memory: Memory, c_rate: float | None) -> str:
    """One row per load: size, elements, seconds, rate, memory, speed against (c)."""
    rows = []

    def row(name: str, r: dict[str, Any], seconds: float) -> None:
        rate = _rate(_elements(r), seconds)
        traced = r.get("traced_peak_mib")
        rows.append(
            [
                name,
                fmt_int(r["arguments"]),
                fmt_int(_elements(r)),
                fmt_float(seconds),
                fmt_int(rate),
                fmt_float(traced) if traced else "-",
                fmt_float(r["rss_peak_mib"]),
                f"{rate / c_rate:.3f}" if c_rate else "-",
            ]
        )

    a, c = results["a"], results.get("c")
    row("(a) argkb `load_records`", a, a["wall"])
    if "a_small" in results:
        row(
            "(a') argkb `load_records`, naive's subset",
            results["a_small"],
            results["a_small"]["wall"],
        )
        row("(b) naive: one `session.run` per record", results["b"], results["b"]["wall"])
    if c:
        row("(c) `neo4j-admin database import full` (import only)", c, c["import_seconds"])
        c_all = c["csv_seconds"] + c["import_seconds"] + c["schema_seconds"]
        row("(c) incl. CSV export and schema/index build", c, c_all)
    for size, r in memory:
        row(f"memory: (a) with tracemalloc, {size:,} arguments", r, r["wall"])
    headers = [
        "run",
        "arguments",
        "elements",
        "seconds",
        "elements/s",
        "peak Python MiB (tracemalloc)",
        "peak RSS MiB",
        "speed vs (c)",
    ]
    return markdown_table(headers, rows)


def phases_table(a: dict[str, Any]) -> str:
    """The phases of argkb's load (a): elements written and seconds in each."""
    phases = a["phases"]
    write_el = a["nodes"] + a["relationships"] - a["reuse_edges"]
    prow = [
        ["hash (content hash of the file)", "0", fmt_float(phases["hash"]), "-"],
        [
            "write (records -> UNWIND batches)",
            fmt_int(write_el),
            fmt_float(phases["write"]),
            fmt_int(_rate(write_el, phases["write"])),
        ],
        [
            "reuse (REUSES edges)",
            fmt_int(a["reuse_edges"]),
            fmt_float(phases["reuse"]),
            fmt_int(_rate(a["reuse_edges"], phases["reuse"])),
        ],
        *(
            [
                [
                    "index (full-text indexes built after a bulk load)",
                    "0",
                    fmt_float(phases["index"]),
                    "-",
                ]
            ]
            if "index" in phases
            else []
        ),
        ["count (corpus summary)", "0", fmt_float(phases["count"]), "-"],
        [
            "total",
            fmt_int(_elements(a)),
            fmt_float(phases["total"]),
            fmt_int(_rate(_elements(a), phases["total"])),
        ],
    ]
    return markdown_table(["phase", "elements", "seconds", "elements/s"], prow)


def notes(results: dict[str, dict[str, Any]], memory: Memory) -> list[str]:
    """The notes under the tables: graph sizes, CPU, load; (a) against (c) count by count."""
    a, c = results["a"], results.get("c")
    lines = [
        f"- (a) graph: {a['arguments']:,} arguments, {a['units']:,} units, {a['sources']:,} "
        f"sources, {a['reuse_edges']:,} reuse edges; store {a['store_mib']:,.0f} MiB; "
        f"client CPU {a['client_cpu']:.0f} s, server CPU {a['server_cpu']:.0f} s over "
        f"{a['wall']:.0f} s wall; bulk mode (full-text indexes built after the load): "
        f"{'yes' if a.get('bulk') else 'no'}; load average {a['load']}"
    ]
    for key, label in (("a_small", "(a')"), ("b", "(b)")):
        if key in results:
            r = results[key]
            extra = f"; REUSES query {r['reuse_seconds']:.1f} s" if key == "b" else ""
            lines.append(
                f"- {label}: client CPU {r['client_cpu']:.1f} s, server CPU "
                f"{r['server_cpu']:.1f} s over {r['wall']:.1f} s wall{extra}; "
                f"load average {r['load']}"
            )
    if c:
        lines += _admin_notes(a, c)
    for size, r in memory:
        phases = ", ".join(f"{k} {v:.1f} s" for k, v in r["phases"].items())
        lines.append(
            f"- memory {size:,}: traced peak {r['traced_peak_mib']:.1f} MiB, RSS before load "
            f"{r['rss_before_mib']:.0f} MiB, peak {r['rss_peak_mib']:.0f} MiB; phases {phases}; "
            f"client CPU {r['client_cpu']:.0f} s, server CPU {r['server_cpu']:.0f} s; "
            f"load average {r['load']}"
        )
    return lines


def _admin_notes(a: dict[str, Any], c: dict[str, Any]) -> list[str]:
    """(c)'s times and memory, and whether its graph has (a)'s node and relationship counts."""
    same = {
        k: (a["graph"].get(k), c["graph"].get(k)) for k in sorted(set(a["graph"]) | set(c["graph"]))
    }
    equal = all(x == y for x, y in same.values())
    return [
        f"- (c): CSV export {c['csv_seconds']:.1f} s ({c['bytes'] / 2**20:,.0f} MiB, "
        f"peak Python RSS {c['rss_peak_mib']:,.0f} MiB), import {c['import_seconds']:.1f} s "
        f"(JVM peak RSS {c['import_rss_mib']:,.0f} MiB, --max-off-heap-memory=4G, "
        f"2 threads), schema + index population after start {c['schema_seconds']:.1f} s; "
        f"multiline CSV files: {len(c['multiline_files'])}; load average {c['load']}",
        "- counts, (a) argkb vs (c) imported: "
        + ", ".join(
            f"{k} {x:,} vs {y:,}" if x == y else f"{k} {x} vs {y} DIFFER"
            for k, (x, y) in same.items()
        ),
        "- graphs of (a) and (c) have equal node and relationship counts: "
        + ("yes" if equal else "NO"),
    ]


def goals(a_rate: float, c_rate: float | None, memory: Memory) -> list[str]:
    """The goal lines: argkb's rate, its distance to neo4j-admin, flat memory."""
    lines = [
        f"- argkb sustains >= {GOAL_RATE:,} elements/s: {a_rate:,.0f} -> "
        f"{'met' if a_rate >= GOAL_RATE else 'NOT met'}"
    ]
    if c_rate:
        factor = c_rate / a_rate
        lines.append(
            f"- argkb within {GOAL_ADMIN_FACTOR}x of neo4j-admin import: (c) is {factor:.1f}x "
            f"faster -> {'met' if factor <= GOAL_ADMIN_FACTOR else 'NOT met'}"
        )
    if len(memory) >= 2:
        (s0, m0), (s1, m1) = memory[0], memory[-1]
        growth = m1["traced_peak_mib"] / m0["traced_peak_mib"]
        rss_growth = (m1["rss_peak_mib"] - m1["rss_before_mib"]) / max(
            m0["rss_peak_mib"] - m0["rss_before_mib"], 1e-9
        )
        lines.append(
            f"- memory flat in corpus size (traced peak grows <= {GOAL_FLAT}x from "
            f"{s0:,} to {s1:,} arguments): {m0['traced_peak_mib']:.1f} -> "
            f"{m1['traced_peak_mib']:.1f} MiB ({growth:.2f}x; RSS growth during the load "
            f"{rss_growth:.2f}x) -> {'met' if growth <= GOAL_FLAT else 'NOT met'}"
        )
    return lines
