"""The report of ``argkb eval argrank`` and its markdown: our Table 2, the paper's, the rest."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from argkb.eval.argrank.content import ScoreRow
from argkb.eval.argrank.scoring import AGGREGATIONS, COLUMNS, LABELS, PAPER_TABLE2, Table2
from argkb.eval.argrank.variants import Variant


@dataclass
class ArgRankReport:
    """Everything ``argkb eval argrank`` computed; serialised as the JSON output."""

    data: str
    alpha: float
    shared: str
    pagerank_norm: str
    seeds: int
    table: Table2
    content: list[ScoreRow]
    variants: list[Variant]
    load: dict[str, Any]
    pagerank: dict[str, Any]
    graph: dict[str, int]
    content_method: dict[str, Any] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    paper: dict[str, dict[str, tuple[float, int, int]]] = field(
        default_factory=lambda: PAPER_TABLE2
    )


def _count(value: float) -> str:
    return str(round(value)) if math.isclose(value, round(value)) else f"{value:.1f}"


def _header(title: str) -> list[str]:
    groups = " | ".join(f"{c} tau | {c} best | {c} worst" for c in COLUMNS)
    return [f"| {title} | {groups} |", "|---|" + "---:|" * (3 * len(COLUMNS))]


def markdown_table(table: Table2) -> str:
    """Our Table 2 as markdown: approaches x (min, avg, max, sum, best) x (tau, best, worst)."""
    lines = _header("Approach (argkb)")
    for row in table.rows:
        parts = []
        for column in COLUMNS:
            cell = row.cells.get(column)
            if cell is None:
                parts.append("n/a | n/a | n/a")
            else:
                tag = f" ({cell.aggregation})" if column == "best" and cell.aggregation else ""
                parts.append(f"{cell.tau:.3f}{tag} | {_count(cell.best)} | {_count(cell.worst)}")
        lines.append(f"| {row.label} | " + " | ".join(parts) + " |")
    return "\n".join(lines)


def markdown_paper_table() -> str:
    """Table 2 as published (EACL 2017), same layout."""
    lines = _header("Approach (paper)")
    for key, cells in PAPER_TABLE2.items():
        parts = []
        for column in COLUMNS:
            if column in cells:
                tau, b, w = cells[column]
                parts.append(f"{tau:.2f} | {b} | {w}")
            else:
                parts.append("n/a | n/a | n/a")
        lines.append(f"| {LABELS[key]} | " + " | ".join(parts) + " |")
    return "\n".join(lines)


def markdown_scores(rows: Sequence[ScoreRow], title: str = "Approach") -> str:
    """Extra rows (mean tau per aggregation only)."""
    lines = [f"| {title} | " + " | ".join(f"{a} tau" for a in AGGREGATIONS) + " | method |"]
    lines.append("|---|" + "---:|" * len(AGGREGATIONS) + "---|")
    for row in rows:
        values = " | ".join(f"{row.tau[a]:.3f}" if a in row.tau else "n/a" for a in AGGREGATIONS)
        lines.append(f"| {row.label} | {values} | {row.method} |")
    return "\n".join(lines)


def markdown_variants(variants: Sequence[Variant]) -> str:
    """PageRank variants: mean tau per aggregation."""
    lines = ["| Variant | " + " | ".join(f"{a} tau" for a in AGGREGATIONS) + " | iterations |"]
    lines.append("|---|" + "---:|" * (len(AGGREGATIONS) + 1))
    for variant in variants:
        values = " | ".join(f"{variant.tau[a]:.3f}" for a in AGGREGATIONS)
        lines.append(f"| {variant.description} | {values} | {variant.iterations} |")
    return "\n".join(lines)


def markdown_report(report: ArgRankReport) -> str:
    """The whole report: our table, the paper's, the content rows, the variants, timings."""
    t = report.table
    norm = "PageRank / f(u)" if report.pagerank_norm == "maps" else "PageRank p(u)"
    parts = [
        "# Webis-ArgRank-17: Table 2 of Wachsmuth, Stein & Ajjour (EACL 2017)",
        "",
        f"{t.conclusions} conclusions, {t.arguments} arguments; alpha = {report.alpha}; "
        f"shared conclusions: {report.shared}; PageRank premise score: {norm}; "
        f"Random: mean over {t.seeds} seeds; tau = Kendall's tau-b, mean over conclusions.",
        "",
        markdown_table(t),
        "",
        "Paper (Table 2, EACL 2017):",
        "",
        markdown_paper_table(),
    ]
    if report.content:
        parts += [
            "",
            "Beyond the paper: structure + content (tau only; not part of the best/worst counts):",
            "",
            markdown_scores(report.content),
        ]
    if report.variants:
        parts += [
            "",
            "PageRank variants (same graph, in process):",
            "",
            markdown_variants(report.variants),
        ]
    if report.seconds:
        timing = ", ".join(f"{k} {v:.1f} s" for k, v in report.seconds.items())
        parts += ["", f"Time: {timing}"]
    return "\n".join(parts) + "\n"
