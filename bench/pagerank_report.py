"""The markdown table and goal lines of ``python -m bench pagerank``, one graph at a time.

Kept apart from :mod:`bench.pagerank` (which measures) so that the measuring script reads top to
bottom; ``res`` is the dict :func:`bench.pagerank.measure` returns: ``graph``, ``repeats``, ``a``
(argkb's compute), ``a1`` (the same with one OpenBLAS thread), and where they ran ``c``
(networkx), ``d`` (GDS), ``e`` (``run_pagerank``) and ``overlap``.
"""

from __future__ import annotations

from typing import Any

from bench.common import fmt_float, markdown_table

GOAL_BOUND = 2.0  # argkb compute within 2x of iterations x one mat-vec


def table(name: str, res: dict[str, Any]) -> str:
    """The markdown table and goal lines of one graph."""
    g, a = res["graph"], res["a"]
    c, d, e = res.get("c"), res.get("d"), res["e"]
    rows = _compute_rows(res) + _networkx_rows(c) + _gds_rows(d) + _run_pagerank_rows(e)
    lines = [
        f"### {name}: {g.n:,} units, {g.arguments:,} arguments, {g.edges:,} premise edges\n",
        markdown_table(["step", "seconds", "iterations", "notes"], rows, "lrrl"),
        "",
        f"- load average: compute {a['load']}; "
        + (f"networkx {c['load']}; " if c and "load" in c else "")
        + (f"GDS {d['load']}; " if d else "")
        + f"run_pagerank {e['load']}",
    ]
    if d:
        lines.append(
            f"- top-100 units by argkb and by GDS share {res['overlap']} units (GDS "
            "drops dangling mass and does not normalise, so scores differ)"
        )
    return "\n".join(lines + _goals(a, d, e))


def _compute_rows(res: dict[str, Any]) -> list[list[str]]:
    """(a) argkb's build, iterate and both together; (b) the bound; (a) with one thread."""
    a, a1 = res["a"], res["a1"]
    return [
        [
            "(a) argkb build (`build_argument_transition`)",
            fmt_float(a["build"], 3),
            "-",
            f"{a['nnz']:,} entries ({a['nnz_canonical']:,} after summing parallel ones)",
        ],
        [
            "(a) argkb iterate (`power_iteration`)",
            fmt_float(a["iterate"], 3),
            str(a["iterations"]),
            f"L1 residual {a['residual']:.1e}",
        ],
        [
            "(a) argkb compute (build + iterate)",
            fmt_float(a["build"] + a["iterate"], 3),
            str(a["iterations"]),
            f"median of {res['repeats']}" if res["repeats"] > 1 else "one run",
        ],
        [
            "(b) bound: iterations x one mat-vec",
            fmt_float(a["bound"], 3),
            str(a["iterations"]),
            f"mat-vec median {a['matvec'] * 1e3:.2f} ms (built {a['matvec_built'] * 1e3:.2f}, "
            f"canonical {a['matvec_canonical'] * 1e3:.2f})",
        ],
        [
            "(a) diagnostic: compute with OPENBLAS_NUM_THREADS=1",
            fmt_float(a1["build"] + a1["iterate"], 3),
            str(a1["iterations"]),
            f"build {a1['build']:.3f} s, iterate {a1['iterate']:.3f} s; bound {a1['bound']:.3f} s",
        ],
    ]


def _networkx_rows(c: dict[str, Any] | None) -> list[list[str]]:
    """(c) networkx, or why it did not finish; nothing when it was skipped."""
    if not c:
        return []
    if "failed" in c:
        return [["(c) networkx.pagerank", "-", "-", c["failed"]]]
    extra = ""
    if c["note"]:
        capped = c["capped"]["build"] + c["capped"]["iterate"]
        extra = f"; {c['note']}, argkb compute on it {capped:.3f} s"
    return [
        [
            "(c) networkx.pagerank",
            fmt_float(c["pagerank"], 3),
            "-",
            f"+ {c['build']:.1f} s DiGraph build; {c['nx_edges']:,} edges; peak RSS "
            f"{c['rss_peak_mib']:,.0f} MiB; max abs diff to argkb "
            f"{c['max_abs_diff']:.1e}{extra}",
        ]
    ]


def _gds_rows(d: dict[str, Any] | None) -> list[list[str]]:
    """(d) GDS projection, write, and both together; nothing when it was skipped."""
    if not d:
        return []
    return [
        [
            "(d) GDS Cypher projection",
            fmt_float(d["project"], 3),
            "-",
            f"{d['nodes']:,} nodes, {d['relationships']:,} relationships",
        ],
        [
            "(d) GDS `pageRank.write`",
            fmt_float(d["write_call"], 3),
            str(d["ranIterations"]),
            f"compute {d['computeMillis'] / 1e3:.3f} s, write {d['writeMillis'] / 1e3:.3f} s, "
            f"converged {d['didConverge']}",
        ],
        ["(d) GDS projection + write", fmt_float(d["project"] + d["write_call"], 3), "-", ""],
    ]


def _run_pagerank_rows(e: dict[str, Any]) -> list[list[str]]:
    """(e) ``run_pagerank`` phase by phase, then end to end."""
    s = e["run"].seconds
    rows = [
        [
            f"(e) argkb `run_pagerank`: {phase}",
            fmt_float(s[phase], 3),
            str(e["run"].iterations) if phase == "iterate" else "-",
            "",
        ]
        for phase in ("export", "build", "iterate", "write")
    ]
    rows.append(
        [
            "(e) argkb `run_pagerank` end to end",
            fmt_float(e["total"], 3),
            str(e["run"].iterations),
            f"{e['run'].units:,} units, {e['run'].arguments:,} arguments",
        ]
    )
    return rows


def _goals(a: dict[str, Any], d: dict[str, Any] | None, e: dict[str, Any]) -> list[str]:
    """The goal lines: compute near the mat-vec bound; end to end faster than GDS."""
    compute_s = a["build"] + a["iterate"]
    ratio = compute_s / a["bound"]
    lines = [
        f"- goal: compute within {GOAL_BOUND:g}x of the mat-vec bound: "
        f"{compute_s:.3f} s / {a['bound']:.3f} s = {ratio:.2f}x (iterate alone "
        f"{a['iterate'] / a['bound']:.2f}x) -> "
        f"{'met' if ratio <= GOAL_BOUND else 'NOT met'}"
    ]
    if d:
        gds = d["project"] + d["write_call"]
        lines.append(
            f"- goal: end to end faster than GDS projection + write: {e['total']:.3f} s "
            f"vs {gds:.3f} s -> {'met' if e['total'] < gds else 'NOT met'}"
        )
    return lines
