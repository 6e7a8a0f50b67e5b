"""Webis-ArgRank-17 evaluation: Table 2 of Wachsmuth, Stein & Ajjour, EACL 2017 (``papers/004``).

For each of the 32 benchmark conclusions, its arguments are ranked by an approach and the ranking
is compared with the experts' ``Aggregate rank`` by Kendall's tau-b (Sec. 6); the table reports
the mean tau over conclusions and, per conclusion, which approach is best / worst.

Approaches (Sec. 6), each scoring an argument from its premises:

``pagerank``
    PageRank of each premise unit, from argkb's Neo4j round trip
    (:func:`argkb.rank.store.run_pagerank`), divided by the unit's frequency ``f(u)``
    (``pagerank_norm="maps"``, the default) or not (``"none"``), then aggregated. A conclusion's
    score goes to all premise slots of its arguments alike (``shared="pool"``, the default) or
    first to its arguments and then to their premises (``"split"``).
``frequency``
    ``f(u)``: the number of Argument Web (AIFdb) maps the unit occurs in, i.e. its rows in
    ``unit-source-list.csv`` -- the "frequency of c in the graph" that Sec. 5.1 says was
    precomputed for every unit, before units with the same text were merged.
``similarity``
    Jaccard similarity of the premise's words and the conclusion's words (``\\w+`` tokens,
    case-folded), on the original AIFdb texts.
``most_premises``
    The number of premises (no aggregation).
``random``
    A uniform random score per argument, one draw per seed; tau and best / worst counts are means
    over the seeds (expected values), so the counts may be fractional.

Every aggregated approach is scored under min, avg, max and sum of its premise scores
(Sec. 4.3, :mod:`argkb.rank.aggregate`). Sentiment (SentiWordNet) is not reproduced.

Readings of the paper, each checked against its Table 2 (see ``docs/eval/argrank.md``):

* **Direction.** Kendall's tau between ``-Aggregate rank`` (rank 1 = most relevant) and the
  score, so a positive tau means agreement. tau-b (:func:`argkb.eval.metrics.kendall_tau`, SciPy)
  handles ties on either side; the paper's worked example ("tau = -0.82" for 3 arguments with one
  tie, Sec. 6) is ``-2 / sqrt(6)``, which only tau-b gives. A ranking without any untied pair has
  no tau-b; it counts as 0 ("Kendall's tau ... applies even when all arguments are ranked
  equally", Sec. 6). Scores are rounded to 12 significant digits first, so that equal scores
  computed along different float paths tie.
* **Best / worst.** Per aggregation column, the competitors are the aggregated approaches under
  that aggregation plus Most premises and Random; per conclusion, every competitor whose tau
  equals the highest (lowest) one within 1e-9 counts one best (worst). Column ``best`` (Table 2
  (e)) compares each approach under its best aggregation. Ties counting for all explains why the
  paper's best counts of column (d) add up to more than 32, and its worst counts of (d) (26 for
  the four aggregated approaches) to fewer than 32 unless Most premises and Random take part.
* **Frequency normalisation.** With ``f(u)`` as above, PageRank / f reproduces the paper's
  per-conclusion taus far better than plain PageRank; the public reproduction
  (hhucn/argument-relevance-paper-results) also divides the paper's released PageRank scores by
  their frequency.
* **Shared conclusions.** The released scores give the premises of a conclusion's 3-premise
  argument the same score as the premise of its 1-premise argument, as ``shared="pool"`` does
  (Sec. 4.2: the contribution of a conclusion "is normalized with the total number of
  premises"); ``"split"`` divides by ``|P_i|`` per argument. Both give the same Sum column here.
  :func:`pagerank_variants` reports these and the other modelling choices side by side.

Beyond the paper, :func:`content_rows` combines the structure with content: embedding similarity
of premise and conclusion (argkb's :class:`~argkb.embed.model.Embedder`), premise length, and
fusions of them with PageRank whose weights are fixed in advance or chosen
leave-one-conclusion-out (:func:`loco_fusion`).

The pure functions take the benchmark arguments (:class:`argkb.loaders.argrank.BenchmarkArgument`)
and per-premise scores; :func:`evaluate_argrank` is the thin Neo4j layer around them.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from argkb.db import cypher
from argkb.errors import ArgKBError

if TYPE_CHECKING:
    import neo4j
    import numpy as np
    from numpy.typing import NDArray

    from argkb.loaders.argrank import BenchmarkArgument

AGGREGATIONS: tuple[str, ...] = ("min", "avg", "max", "sum")
COLUMNS: tuple[str, ...] = (*AGGREGATIONS, "best")
PagerankNorm = Literal["maps", "none"]
Shared = Literal["pool", "split"]
PremiseScores = Sequence[Sequence[float]]  # per argument, one score per premise (in order)
EmbedFn = Callable[[Sequence[str]], "NDArray[np.float32]"]

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


class EvaluationError(ArgKBError):
    """The benchmark cannot be scored (a unit missing from the graph, no PageRank yet, ...)."""


# -- results -----------------------------------------------------------------------------------


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


@dataclass
class ScoreRow:
    """A ranking approach outside the paper's comparison: mean tau per aggregation only."""

    key: str
    label: str
    method: str
    tau: dict[str, float]
    taus: dict[str, dict[int, float]] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class Variant:
    """PageRank computed another way, scored like the PageRank row (mean tau per aggregation)."""

    key: str
    description: str
    tau: dict[str, float]
    iterations: int = 0


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


# -- scoring (pure) ----------------------------------------------------------------------------


def _tie_round(value: float) -> float:
    return float(f"{value:.{_TIE_DIGITS}g}") if math.isfinite(value) else value


def _groups(arguments: Sequence[BenchmarkArgument]) -> dict[int, list[int]]:
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
    for conclusion, members in _groups(arguments).items():
        reference = [-float(arguments[i].aggregate_rank) for i in members]
        scores = [_tie_round(float(relevance[i])) for i in members]
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
    groups = _groups(arguments)
    return Table2(rows, len(groups), len(arguments), seeds)


def score_row(
    key: str,
    label: str,
    method: str,
    arguments: Sequence[BenchmarkArgument],
    scores: PremiseScores | Mapping[str, Sequence[float]],
) -> ScoreRow:
    """Mean and per-conclusion tau of an extra approach, per aggregation.

    ``scores`` is either per-premise scores (aggregated four ways) or, already aggregated, one
    relevance per argument for each aggregation name.
    """
    if isinstance(scores, Mapping):
        relevance = dict(scores)
    else:
        relevance = {agg: aggregate(scores, agg) for agg in AGGREGATIONS}
    taus = {agg: conclusion_taus(arguments, values) for agg, values in relevance.items()}
    return ScoreRow(key, label, method, {agg: mean_tau(t) for agg, t in taus.items()}, taus)


def conclusion_ranks(
    arguments: Sequence[BenchmarkArgument], scores: Sequence[float]
) -> list[float]:
    """Rank of each argument among its conclusion's arguments: 1 = highest score, ties averaged."""
    from scipy.stats import rankdata

    ranks = [0.0] * len(arguments)
    for members in _groups(arguments).values():
        found = rankdata([-_tie_round(scores[i]) for i in members], method="average")
        for position, index in enumerate(members):
            ranks[index] = float(found[position])
    return ranks


def rank_fusion(
    arguments: Sequence[BenchmarkArgument],
    first: Sequence[float],
    *others: Sequence[float],
    weights: Sequence[float] | None = None,
) -> list[float]:
    """Borda fusion: minus the weighted sum of each argument's ranks in its conclusion.

    Ranks come from :func:`conclusion_ranks`; ``first`` has weight 1, ``others`` have
    ``weights`` (all 1 by default, i.e. no weight to choose).
    """
    chosen = [1.0] * len(others) if weights is None else list(weights)
    if len(chosen) != len(others):
        raise EvaluationError(f"{len(chosen)} weights for {len(others)} rankings")
    total = conclusion_ranks(arguments, first)
    for weight, scores in zip(chosen, others, strict=True):
        total = [
            t + weight * r for t, r in zip(total, conclusion_ranks(arguments, scores), strict=True)
        ]
    return [-t for t in total]


LOCO_GRID: tuple[float, ...] = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)


def loco_fusion(
    arguments: Sequence[BenchmarkArgument],
    base: Sequence[float],
    others: Mapping[str, Sequence[float]],
    grid: Sequence[float] = LOCO_GRID,
) -> tuple[dict[int, float], dict[int, dict[str, float]]]:
    """Weighted rank fusion whose weights are chosen leave-one-conclusion-out.

    For every weight vector in ``grid ** len(others)``, arguments are ranked by
    :func:`rank_fusion` (``base`` with weight 1). For each conclusion, the weights with the highest
    summed tau over the *other* conclusions are picked (ties: the first in grid order, i.e. the
    smaller weights) and that fusion's tau on the held-out conclusion is kept. The mean of the
    held-out taus is an honest estimate: no conclusion is scored with weights fitted on it.

    Returns
    -------
    held_out : dict of int to float
        Conclusion id -> tau of the fusion chosen without it.
    weights : dict of int to (dict of str to float)
        Conclusion id -> the weights chosen for it.
    """
    import itertools

    names = list(others)
    candidates = list(itertools.product(grid, repeat=len(names)))
    taus = [
        conclusion_taus(arguments, rank_fusion(arguments, base, *others.values(), weights=w))
        for w in candidates
    ]
    totals = [math.fsum(t.values()) for t in taus]
    held_out: dict[int, float] = {}
    chosen: dict[int, dict[str, float]] = {}
    for conclusion in _groups(arguments):
        best = max(range(len(candidates)), key=lambda k: (totals[k] - taus[k][conclusion], -k))
        held_out[conclusion] = taus[best][conclusion]
        chosen[conclusion] = dict(zip(names, candidates[best], strict=True))
    return held_out, chosen


def content_rows(
    arguments: Sequence[BenchmarkArgument],
    pagerank_scores: PremiseScores,
    embed: EmbedFn,
) -> list[ScoreRow]:
    """Structure plus content (beyond the paper): embedding similarity, length and PageRank.

    ``cos(p, c)`` is the cosine of the embeddings (``embed`` must return L2-normalised vectors)
    of each premise's text and its conclusion's text (the original AIFdb texts, one per premise,
    so that the four aggregations apply). Rows:

    * ``embedding_similarity``: ``cos(p, c)`` alone (content only);
    * ``pagerank_x_similarity``: ``score(p) * max(cos(p, c), 0)`` -- the PageRank score of a
      premise counted in proportion to how closely it addresses the conclusion; fixed before any
      result was seen, no weight; its headline is the sum aggregation;
    * ``rank_fusion``: equal-weight Borda fusion of the PageRank and the similarity rankings
      under the same aggregation (:func:`rank_fusion`), again without a weight;
    * ``premise_length``: the number of words of the premises as the experts read them
      (``Corrected premises text``), content only, one value per argument;
    * ``loco_fusion``: PageRank-sum rank + ``a`` * similarity-sum rank + ``b`` * length rank,
      with ``(a, b)`` from :data:`LOCO_GRID` chosen leave-one-conclusion-out
      (:func:`loco_fusion`).
    """
    import numpy as np

    texts = sorted(
        {a.conclusion_text for a in arguments} | {t for a in arguments for t in a.premise_texts}
    )
    vectors = np.asarray(embed(texts), dtype=np.float64)
    if vectors.shape[0] != len(texts):
        raise EvaluationError(
            f"the embedder returned {vectors.shape[0]} vectors for {len(texts)} texts"
        )
    row_of = {text: i for i, text in enumerate(texts)}
    cosine = [
        [float(vectors[row_of[t]] @ vectors[row_of[a.conclusion_text]]) for t in a.premise_texts]
        for a in arguments
    ]
    product = [
        [s * max(c, 0.0) for s, c in zip(structure, content, strict=True)]
        for structure, content in zip(pagerank_scores, cosine, strict=True)
    ]
    fused = {
        agg: rank_fusion(arguments, aggregate(pagerank_scores, agg), aggregate(cosine, agg))
        for agg in AGGREGATIONS
    }
    length = [float(len(words(a.corrected_premises))) for a in arguments]
    held_out, chosen = loco_fusion(
        arguments,
        aggregate(pagerank_scores, "sum"),
        {"similarity": aggregate(cosine, "sum"), "length": length},
    )
    picked: dict[str, int] = {}
    for weights in chosen.values():
        label = ", ".join(f"{k}={v:g}" for k, v in weights.items())
        picked[label] = picked.get(label, 0) + 1
    grid = ", ".join(f"{g:g}" for g in LOCO_GRID)
    loco = ScoreRow(
        "loco_fusion",
        "LOCO fusion (PageRank, similarity, length)",
        f"rank(PageRank sum) + a*rank(similarity sum) + b*rank(length), (a, b) in {{{grid}}}^2 "
        f"chosen on the other {len(held_out) - 1} conclusions",
        {"sum": mean_tau(held_out)},
        {"sum": held_out},
        {"weights_chosen": picked, "weights_by_conclusion": chosen},
    )
    return [
        score_row(
            "embedding_similarity", "Embedding similarity", "cos(premise, conclusion)",
            arguments, cosine,
        ),
        score_row(
            "pagerank_x_similarity", "PageRank x similarity (a priori)",
            "PageRank score of the premise * max(cos(premise, conclusion), 0)", arguments, product,
        ),
        score_row(
            "rank_fusion", "Rank fusion (PageRank, similarity)",
            "Borda: sum of the two ranks per conclusion, equal weights", arguments, fused,
        ),
        score_row(
            "premise_length", "Premise length (content only)",
            "words of the premises as the experts read them", arguments, {"sum": length},
        ),
        loco,
    ]  # fmt: skip


# -- PageRank variants (pure, on the exported unit graph) --------------------------------------


@dataclass
class GraphArrays:
    """The unit graph as arrays (:class:`argkb.rank.store.UnitGraph` fields that matter here)."""

    n_units: int
    conclusions: NDArray[np.int64]
    premise_indptr: NDArray[np.int64]
    premise_units: NDArray[np.int64]


def pagerank_variants(
    graph: GraphArrays,
    arguments: Sequence[BenchmarkArgument],
    index_of: Mapping[int, int],
    frequency: Mapping[int, int],
    premise_uses: Mapping[int, int],
    *,
    alpha: float = 0.85,
    shared: Shared = "pool",
    tol: float = 1e-12,
) -> list[Variant]:
    """The PageRank row under other modelling choices, computed in process on the same graph.

    Parameters
    ----------
    graph : GraphArrays
        The unit graph exported from Neo4j (dense unit indices).
    arguments : sequence of BenchmarkArgument
    index_of : mapping of int to int
        Webis-ArgRank-17 unit id -> dense unit index in ``graph``.
    frequency : mapping of int to int
        ``f(u)``, the number of AIFdb maps of each benchmark premise unit.
    premise_uses : mapping of int to int
        Number of arguments each benchmark premise unit is a premise of.
    alpha, shared : float, {"pool", "split"}
        The settings of the main run; each variant changes one thing (two for the last one).

    Returns
    -------
    list of Variant
        The main run recomputed in process with :func:`argkb.rank.pagerank.argument_pagerank`
        (it must match the Neo4j round trip), then one change each.
    """
    import numpy as np

    from argkb.rank.pagerank import argument_pagerank

    other: Shared = "split" if shared == "pool" else "pool"
    single_premise = {  # one argument per premise: the benchmark's premise sets split too
        "conclusions": np.repeat(graph.conclusions, np.diff(graph.premise_indptr)),
        "premise_indptr": np.arange(graph.premise_units.size + 1, dtype=np.int64),
    }
    in_argument = np.zeros(graph.n_units, dtype=np.float64)
    in_argument[graph.conclusions] = 1.0
    in_argument[graph.premise_units] = 1.0
    # (key, description, changes to the PageRank, premise normalisation)
    specs: list[tuple[str, str, dict[str, Any], str]] = [
        ("main", f"main run recomputed in process (shared={shared}, p(u) / f(u))", {}, "maps"),
        ("raw", "p(u) not divided by f(u)", {}, "none"),
        ("per_use", "p(u) divided by its number of premise uses instead of f(u)", {}, "uses"),
        (f"shared_{other}", f"shared={other}", {"shared": other}, "maps"),
        (
            f"shared_{other}_raw",
            f"shared={other} and p(u) not divided by f(u)",
            {"shared": other},
            "none",
        ),
        (
            "dangling_drop",
            "dangling mass dropped (the literal formula)",
            {"dangling": "drop"},
            "maps",
        ),
        (
            "edges_only",
            "one argument per edge, benchmark premise sets split too",
            single_premise,
            "maps",
        ),
        (
            "ground_in_arguments",
            f"ground relevance only on the {int(in_argument.sum()):,} units in some argument "
            f"(not on all {graph.n_units:,})",
            {"ground": in_argument},
            "maps",
        ),
    ]
    specs += [
        (f"alpha={a}", f"alpha = {a}", {"alpha": a}, "maps")
        for a in (0.5, 0.7, 0.9, 0.99)
        if not math.isclose(a, alpha)
    ]

    computed: dict[str, tuple[NDArray[np.float64], int]] = {}

    def pagerank(changes: dict[str, Any]) -> tuple[NDArray[np.float64], int]:
        key = repr(
            sorted((k, id(v) if isinstance(v, np.ndarray) else v) for k, v in changes.items())
        )
        if key not in computed:
            options: dict[str, Any] = {
                "alpha": alpha,
                "shared": shared,
                "tol": tol,
                "max_iter": 20_000,
                **changes,
            }
            conclusions = options.pop("conclusions", graph.conclusions)
            indptr = options.pop("premise_indptr", graph.premise_indptr)
            result = argument_pagerank(
                graph.n_units, conclusions, indptr, graph.premise_units, **options
            )
            computed[key] = (result.scores, result.iterations)
        return computed[key]

    divisors = {
        "maps": {u: max(frequency[u], 1) for u in frequency},
        "uses": {u: max(premise_uses[u], 1) for u in frequency},
        "none": dict.fromkeys(frequency, 1),
    }
    variants = []
    for key, description, changes, norm in specs:
        scores, iterations = pagerank(changes)
        unit_score = {u: float(scores[index_of[u]]) / d for u, d in divisors[norm].items()}
        premise = per_premise(arguments, unit_score)
        tau = {
            agg: mean_tau(conclusion_taus(arguments, aggregate(premise, agg)))
            for agg in AGGREGATIONS
        }
        variants.append(Variant(key, description, tau, iterations))
    return variants


# -- markdown ----------------------------------------------------------------------------------


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


# -- Neo4j layer -------------------------------------------------------------------------------

# Benchmark units by their Webis-ArgRank-17 id, with what the evaluation needs. (Kept here rather
# than in cypher/ only because this command's files are its own module; it is exercised by the
# integration tests against a real server.)


@dataclass(frozen=True)
class UnitInfo:
    """A benchmark unit as stored: PageRank, f(u) (AIFdb maps), premise uses, internal id."""

    argrank_id: int
    node: int
    pagerank: float | None
    maps: int
    premise_uses: int


def load_dataset(
    driver: neo4j.Driver,
    data: str | Path,
    database: str | None = None,
    *,
    progress: Callable[[int], None] | None = None,
) -> Any:
    """Load the Webis-ArgRank-17 directory with argkb's loader (a no-op when already loaded)."""
    from argkb.db.schema import init_schema
    from argkb.ingest import load_records
    from argkb.loaders import reader

    init_schema(driver, database)
    return load_records(
        driver, "argrank", [data], reader("argrank")([data]), database=database, progress=progress
    )


def read_units(
    driver: neo4j.Driver, unit_ids: Sequence[int], database: str | None = None
) -> dict[int, UnitInfo]:
    """The stored state of the given Webis-ArgRank-17 units, keyed by their id."""
    from neo4j import RoutingControl

    from argkb.loaders.argrank import unit_key

    records, _, _ = driver.execute_query(
        cypher.load("eval/argrank_units"),
        {"uids": [unit_key(u) for u in unit_ids]},
        database_=database,
        routing_=RoutingControl.READ,
    )
    out = {}
    for record in records:
        maps = record["maps"]
        out[int(record["argrank_id"])] = UnitInfo(
            argrank_id=int(record["argrank_id"]),
            node=int(record["node"]),
            pagerank=None if record["pagerank"] is None else float(record["pagerank"]),
            maps=len(str(maps).split()) if maps else 0,
            premise_uses=int(record["premise_uses"]),
        )
    missing = sorted(set(unit_ids) - set(out))
    if missing:
        shown = ", ".join(str(u) for u in missing[:5])
        raise EvaluationError(
            f"{len(missing)} benchmark unit(s) are not in the graph (e.g. {shown}); "
            "load the dataset with `argkb load argrank DIR`"
        )
    return out


def evaluate_argrank(
    driver: neo4j.Driver,
    data: str | Path,
    database: str | None = None,
    *,
    alpha: float = 0.85,
    shared: Shared = "pool",
    seeds: int = 100,
    pagerank_norm: PagerankNorm = "maps",
    embed: EmbedFn | None = None,
    content_method: Mapping[str, Any] | None = None,
    variants: bool = True,
    echo: Callable[[str], None] = lambda _msg: None,
    progress: Callable[[int], None] | None = None,
) -> ArgRankReport:
    """Load, rank with argkb's PageRank round trip, read back, and score Table 2 (EACL 2017).

    Parameters
    ----------
    driver : neo4j.Driver
    data : path
        The Webis-ArgRank-17 directory (``groundtruth.json``, ``ground-truth-list.csv``,
        ``unit-source-list.csv``).
    database : str, optional
    alpha : float
        Damping of the PageRank (the paper does not state its value).
    shared : {"pool", "split"}
        How a conclusion's score is shared by the premises of its arguments: equally by all its
        premise slots (``pool``, which :func:`argkb.rank.store.run_pagerank` computes as its
        ``classic`` variant: unit edges of weight 1), or first among its arguments and then
        among each argument's premises (``split``, its ``adapted`` default). See
        :mod:`argkb.rank.pagerank`.
    seeds : int
        Random draws for the Random row (0: none).
    pagerank_norm : {"maps", "none"}
        Divide a premise's PageRank by its frequency f(u) (number of AIFdb maps), or not.
    embed : callable, optional
        Texts -> L2-normalised vectors; with it, the structure + content rows are added.
    content_method : mapping, optional
        What ``embed`` is (model name, device), recorded in the report.
    variants : bool
        Also score the PageRank variants of :func:`pagerank_variants`.
    echo, progress
        Status lines and load progress (records).

    Returns
    -------
    ArgRankReport
    """
    import numpy as np

    from argkb.loaders.argrank import load_benchmark
    from argkb.rank.store import export_graph, run_pagerank

    if shared not in ("pool", "split"):
        raise EvaluationError(f"shared must be 'pool' or 'split', got {shared!r}")
    if pagerank_norm not in ("maps", "none"):
        raise EvaluationError(f"pagerank_norm must be 'maps' or 'none', got {pagerank_norm!r}")
    if seeds < 0:
        raise EvaluationError(f"seeds must be >= 0, got {seeds}")
    seconds: dict[str, float] = {}
    clock = time.perf_counter()
    arguments = load_benchmark(data)
    if not arguments:
        raise EvaluationError(f"{data}: the benchmark has no arguments")
    echo(f"benchmark: {len(arguments)} arguments, {len(_groups(arguments))} conclusions")
    summary = load_dataset(driver, data, database, progress=progress)
    seconds["load"] = time.perf_counter() - clock
    echo(
        f"graph {summary.corpus}: {'already loaded' if summary.already_loaded else 'loaded'}, "
        f"{summary.arguments:,} arguments, {summary.units:,} units"
    )

    clock = time.perf_counter()
    # Adapted PageRank with shared="pool" is classic PageRank on the unit edges with weight 1
    # (argkb.rank.pagerank.unit_edges), which is what run_pagerank's "classic" variant computes.
    variant: Literal["adapted", "classic"] = "classic" if shared == "pool" else "adapted"
    run = run_pagerank(driver, database, alpha=alpha, variant=variant, echo=echo)
    seconds["pagerank"] = time.perf_counter() - clock
    echo(f"PageRank: {run.iterations} iterations over {run.units:,} units")

    clock = time.perf_counter()
    wanted = sorted(
        {a.conclusion_id for a in arguments} | {p for a in arguments for p in a.premise_ids}
    )
    units = read_units(driver, wanted, database)
    unscored = [u for u, info in units.items() if info.pagerank is None]
    if unscored:
        raise EvaluationError(f"{len(unscored)} benchmark unit(s) have no PageRank after the run")
    premise_ids = sorted({p for a in arguments for p in a.premise_ids})
    frequency = {u: units[u].maps for u in premise_ids}
    pagerank = {
        u: float(units[u].pagerank or 0.0)
        / (max(frequency[u], 1) if pagerank_norm == "maps" else 1)
        for u in premise_ids
    }
    pagerank_scores = per_premise(arguments, pagerank)
    table = table2(
        arguments,
        {
            "pagerank": pagerank_scores,
            "frequency": per_premise(arguments, {u: float(f) for u, f in frequency.items()}),
            "similarity": jaccard_scores(arguments),
        },
        seeds=seeds,
    )
    seconds["score"] = time.perf_counter() - clock

    content: list[ScoreRow] = []
    if embed is not None:
        clock = time.perf_counter()
        echo("embedding the benchmark texts")
        content = content_rows(arguments, pagerank_scores, embed)
        seconds["content"] = time.perf_counter() - clock

    found: list[Variant] = []
    graph_counts: dict[str, int] = {"units": run.units, "arguments": run.arguments}
    if variants:
        clock = time.perf_counter()
        graph = export_graph(driver, database)
        index = {u: int(np.searchsorted(graph.unit_ids, info.node)) for u, info in units.items()}
        arrays = GraphArrays(
            len(graph.unit_ids), graph.conclusions, graph.premise_indptr, graph.premise_units
        )
        found = pagerank_variants(
            arrays,
            arguments,
            index,
            frequency,
            {u: units[u].premise_uses for u in premise_ids},
            alpha=alpha,
            shared=shared,
        )
        seconds["variants"] = time.perf_counter() - clock
    return ArgRankReport(
        data=str(data),
        alpha=alpha,
        shared=shared,
        pagerank_norm=pagerank_norm,
        seeds=seeds,
        table=table,
        content=content,
        variants=found,
        load={
            "corpus": summary.corpus,
            "already_loaded": summary.already_loaded,
            "arguments": summary.arguments,
            "units": summary.units,
            "seconds": summary.seconds,
        },
        pagerank={
            "variant": run.variant,
            "iterations": run.iterations,
            "residual": run.residual,
            "units": run.units,
            "arguments": run.arguments,
            "seconds": run.seconds,
        },
        graph=graph_counts,
        content_method=dict(content_method or {}),
        seconds=seconds,
    )
