"""Table 2 scoring (pure): per-conclusion Kendall's tau, aggregation, best / worst counts.

Sec. 6 of Wachsmuth, Stein & Ajjour, EACL 2017; the readings of the paper are listed in
:mod:`argkb.eval.argrank`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from argkb.errors import EvaluationError

if TYPE_CHECKING:
    from argkb.loaders.argrank import BenchmarkArgument

AGGREGATIONS: tuple[str, ...] = ("min", "avg", "max", "sum")
COLUMNS: tuple[str, ...] = (*AGGREGATIONS, "best")
PagerankNorm = Literal["maps", "none"]
Shared = Literal["pool", "split"]
PremiseScores = Sequence[Sequence[float]]  # per argument, one score per premise (in order)

LABELS: dict[str, str] = {
    "pagerank": "PageRank",
    "frequency": "Frequency",
    "similarity": "Similarity",
    "sentiment": "Sentiment",
    "most_premises": "Most premises",
    "random": "Random",
}
AGGREGATED = ("pagerank", "frequency", "similarity")
UNAGGREGATED = ("most_premises", "random")

# Table 2 of Wachsmuth, Stein & Ajjour (EACL 2017) as published: (tau, best, worst) per column.
PAPER_TABLE2: dict[str, dict[str, tuple[float, int, int]]] = {
    "pagerank": {
        "min": (0.01, 11, 6), "avg": (0.02, 12, 6), "max": (0.11, 11, 4),
        "sum": (0.28, 15, 3), "best": (0.28, 15, 3),
    },
    "frequency": {
        "min": (-0.10, 5, 9), "avg": (-0.03, 8, 10), "max": (-0.01, 7, 9),
        "sum": (0.10, 11, 9), "best": (0.10, 11, 9),
    },
    "similarity": {
        "min": (-0.13, 7, 12), "avg": (-0.05, 8, 11), "max": (0.01, 9, 10),
        "sum": (0.02, 9, 10), "best": (0.02, 9, 10),
    },
    "sentiment": {
        "min": (0.01, 8, 6), "avg": (0.11, 12, 4), "max": (0.12, 10, 5),
        "sum": (0.12, 12, 4), "best": (0.12, 12, 4),
    },
    "most_premises": {"best": (0.19, 6, 1)},
    "random": {"best": (0.00, 8, 7)},
}  # fmt: skip

_WORD = re.compile(r"\w+")
_TIE_DIGITS = 12
_BEST_TOL = 1e-9
# Preference among aggregations with the same mean tau for column "best" (the paper's default
# aggregation first).
_AGG_PREFERENCE = ("sum", "max", "avg", "min")


@dataclass
class Cell:
    """One approach under one aggregation: mean tau over conclusions and best / worst counts."""

    tau: float
    best: float
    worst: float
    aggregation: str = ""  # for column "best": the aggregation it stands for


@dataclass
class Row:
    """One approach of Table 2: a cell per column (``None``: n/a) and the per-conclusion taus."""

    key: str
    label: str
    cells: dict[str, Cell | None]
    taus: dict[str, dict[int, float]] = field(default_factory=dict)


@dataclass
class Table2:
    """The rows of Table 2 over ``conclusions`` benchmark conclusions."""

    rows: list[Row]
    conclusions: int
    arguments: int
    seeds: int

    def row(self, key: str) -> Row:
        for row in self.rows:
            if row.key == key:
                return row
        raise KeyError(key)


def tie_round(value: float) -> float:
    return float(f"{value:.{_TIE_DIGITS}g}") if math.isfinite(value) else value


def conclusion_groups(arguments: Sequence[BenchmarkArgument]) -> dict[int, list[int]]:
    """Indices of the arguments of each conclusion, conclusions in ascending id order."""
    groups: dict[int, list[int]] = {}
    for index, argument in enumerate(arguments):
        groups.setdefault(argument.conclusion_id, []).append(index)
    return dict(sorted(groups.items()))


def conclusion_taus(
    arguments: Sequence[BenchmarkArgument], relevance: Sequence[float]
) -> dict[int, float]:
    """Kendall's tau-b of each conclusion's argument ranking against the benchmark (Sec. 6).

    Parameters
    ----------
    arguments : sequence of BenchmarkArgument
        The benchmark arguments (any order).
    relevance : sequence of float
        Score of each argument, aligned with ``arguments``; higher = more relevant.

    Returns
    -------
    dict of int to float
        Conclusion unit id -> tau-b between ``-aggregate_rank`` and ``relevance`` (rounded to 12
        significant digits so that float noise does not break ties); 0.0 where tau-b is undefined
        (all arguments scored equally).
    """
    from argkb.eval.metrics import kendall_tau

    if len(relevance) != len(arguments):
        raise EvaluationError(
            f"{len(relevance)} relevance scores for {len(arguments)} benchmark arguments"
        )
    out: dict[int, float] = {}
    for conclusion, members in conclusion_groups(arguments).items():
        reference = [-float(arguments[i].aggregate_rank) for i in members]
        scores = [tie_round(float(relevance[i])) for i in members]
        tau = kendall_tau(reference, scores)
        out[conclusion] = 0.0 if math.isnan(tau) else tau
    return out


def mean_tau(taus: Mapping[int, float]) -> float:
    """Mean of the per-conclusion taus (the tau of Table 2)."""
    return math.fsum(taus.values()) / len(taus) if taus else math.nan


def aggregate(premise_scores: PremiseScores, method: str) -> list[float]:
    """Relevance of each argument as min / avg / max / sum of its premise scores (Sec. 4.3).

    Delegates to :func:`argkb.rank.aggregate.aggregate_premises` over a CSR layout of the
    per-argument premise scores.
    """
    import numpy as np

    from argkb.rank.aggregate import aggregate_premises

    sizes = [len(scores) for scores in premise_scores]
    if any(size == 0 for size in sizes):
        raise EvaluationError("every benchmark argument needs at least one premise score")
    indptr = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=indptr[1:])
    flat = np.asarray([s for scores in premise_scores for s in scores], dtype=np.float64)
    units = np.arange(flat.size, dtype=np.int64)
    if method not in AGGREGATIONS:
        raise EvaluationError(f"aggregation must be one of {', '.join(AGGREGATIONS)}: {method!r}")
    values = aggregate_premises(flat, indptr, units, method)  # type: ignore[arg-type]
    return [float(v) for v in values]


def per_premise(
    arguments: Sequence[BenchmarkArgument], unit_score: Mapping[int, float]
) -> list[list[float]]:
    """Premise scores from a score per premise unit (PageRank, frequency)."""
    missing = sorted({p for a in arguments for p in a.premise_ids if p not in unit_score})
    if missing:
        shown = ", ".join(str(p) for p in missing[:5])
        raise EvaluationError(f"no score for {len(missing)} premise unit(s), e.g. {shown}")
    return [[float(unit_score[p]) for p in a.premise_ids] for a in arguments]


def words(text: str) -> set[str]:
    """The set of case-folded ``\\w+`` tokens of a text (for the Jaccard similarity)."""
    return set(_WORD.findall(text.casefold()))


def jaccard(first: str, second: str) -> float:
    """Jaccard similarity of the word sets of two texts; 0.0 when both have no words."""
    a, b = words(first), words(second)
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def jaccard_scores(arguments: Sequence[BenchmarkArgument]) -> list[list[float]]:
    """Similarity approach of Sec. 6: Jaccard of each premise's words with the conclusion's."""
    return [[jaccard(text, a.conclusion_text) for text in a.premise_texts] for a in arguments]


def random_taus(arguments: Sequence[BenchmarkArgument], seeds: int) -> list[dict[int, float]]:
    """Per-conclusion taus of a uniform random score per argument, one dict per seed 0..seeds-1."""
    import numpy as np

    return [
        conclusion_taus(arguments, np.random.default_rng(seed).random(len(arguments)).tolist())
        for seed in range(seeds)
    ]


def best_worst(
    taus: Mapping[str, Mapping[int, float]],
    random_runs: Sequence[Mapping[int, float]] = (),
    *,
    random_key: str = "random",
    tol: float = _BEST_TOL,
) -> dict[str, tuple[float, float]]:
    """How often each competitor has the highest / lowest tau of a conclusion (Table 2).

    Parameters
    ----------
    taus : mapping of str to (mapping of int to float)
        Per competitor, its tau per conclusion; all over the same conclusions.
    random_runs : sequence of mappings, optional
        Per-conclusion taus of the random ranker, one per seed. With them, every count is the mean
        over the seeds of the counts with that seed's random ranker taking part (an expected
        count); the random ranker's own counts appear under ``random_key``.
    tol : float
        Taus within ``tol`` of the highest (lowest) one tie, and each tied competitor counts.

    Returns
    -------
    dict of str to (float, float)
        ``(best, worst)`` per competitor.
    """
    runs: Sequence[Mapping[int, float] | None] = list(random_runs) or [None]
    conclusions = sorted(next(iter(taus.values())).keys()) if taus else []
    keys = [*taus, *([random_key] if random_runs else [])]
    best = dict.fromkeys(keys, 0.0)
    worst = dict.fromkeys(keys, 0.0)
    for run in runs:
        for conclusion in conclusions:
            values = {key: taus[key][conclusion] for key in taus}
            if run is not None:
                values[random_key] = run[conclusion]
            high, low = max(values.values()), min(values.values())
            for key, value in values.items():
                best[key] += value >= high - tol
                worst[key] += value <= low + tol
    return {key: (best[key] / len(runs), worst[key] / len(runs)) for key in keys}


def table2(
    arguments: Sequence[BenchmarkArgument],
    premise_scores: Mapping[str, PremiseScores],
    *,
    seeds: int = 100,
) -> Table2:
    """Table 2 of EACL 2017: mean tau, best and worst counts per approach and aggregation.

    Parameters
    ----------
    arguments : sequence of BenchmarkArgument
    premise_scores : mapping of str to PremiseScores
        Aggregated approaches (e.g. ``pagerank``, ``frequency``, ``similarity``): per argument,
        one score per premise. Most premises and Random are added here.
    seeds : int
        Random draws; 0 leaves the Random row out (and out of the best / worst comparison).

    Returns
    -------
    Table2
    """
    taus: dict[str, dict[str, dict[int, float]]] = {}
    for key, scores in premise_scores.items():
        taus[key] = {
            agg: conclusion_taus(arguments, aggregate(scores, agg)) for agg in AGGREGATIONS
        }
    premises_taus = conclusion_taus(arguments, [float(len(a.premise_ids)) for a in arguments])
    runs = random_taus(arguments, seeds)

    def means(agg_taus: Mapping[str, Mapping[int, float]]) -> dict[str, float]:
        return {agg: mean_tau(values) for agg, values in agg_taus.items()}

    chosen: dict[str, str] = {}
    for key, agg_taus in taus.items():
        averages = means(agg_taus)
        pick = _AGG_PREFERENCE[0]
        for agg in _AGG_PREFERENCE[1:]:  # highest mean tau; a tie keeps the earlier preference
            if averages[agg] > averages[pick]:
                pick = agg
        chosen[key] = pick
    counts: dict[str, dict[str, tuple[float, float]]] = {}
    for column in COLUMNS:
        competitors = {
            key: agg_taus[chosen[key] if column == "best" else column]
            for key, agg_taus in taus.items()
        }
        competitors["most_premises"] = premises_taus
        counts[column] = best_worst(competitors, runs)

    rows: list[Row] = []
    for key, agg_taus in taus.items():
        cells: dict[str, Cell | None] = {}
        for column in COLUMNS:
            agg = chosen[key] if column == "best" else column
            b, w = counts[column][key]
            cells[column] = Cell(mean_tau(agg_taus[agg]), b, w, agg)
        rows.append(Row(key, LABELS.get(key, key), cells, {**agg_taus}))
    unaggregated: dict[str, tuple[float, dict[int, float]]] = {
        "most_premises": (mean_tau(premises_taus), premises_taus)
    }
    if runs:
        per_conclusion = {c: math.fsum(run[c] for run in runs) / len(runs) for c in runs[0]}
        unaggregated["random"] = (mean_tau(per_conclusion), per_conclusion)
    for key, (tau, per_conclusion) in unaggregated.items():
        cells = dict.fromkeys(AGGREGATIONS, None)
        b, w = counts["best"][key]
        cells["best"] = Cell(tau, b, w, "")
        rows.append(Row(key, LABELS[key], cells, {"best": per_conclusion}))
    groups = conclusion_groups(arguments)
    return Table2(rows, len(groups), len(arguments), seeds)
