"""Structure plus content, beyond the paper: embedding similarity, premise length, fusions.

Rows scored like Table 2's (mean tau per aggregation) but outside its best / worst comparison;
fusion weights are fixed in advance or chosen leave-one-conclusion-out (:func:`loco_fusion`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from argkb.errors import EvaluationError
from argkb.eval.argrank.scoring import (
    AGGREGATIONS,
    PremiseScores,
    aggregate,
    conclusion_groups,
    conclusion_taus,
    mean_tau,
    tie_round,
    words,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from argkb.loaders.argrank import BenchmarkArgument

EmbedFn = Callable[[Sequence[str]], "NDArray[np.float32]"]


@dataclass
class ScoreRow:
    """A ranking approach outside the paper's comparison: mean tau per aggregation only."""

    key: str
    label: str
    method: str
    tau: dict[str, float]
    taus: dict[str, dict[int, float]] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)


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
    for members in conclusion_groups(arguments).values():
        found = rankdata([-tie_round(scores[i]) for i in members], method="average")
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
    for conclusion in conclusion_groups(arguments):
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
    cosine = _cosines(arguments, embed)
    product = [
        [s * max(c, 0.0) for s, c in zip(structure, content, strict=True)]
        for structure, content in zip(pagerank_scores, cosine, strict=True)
    ]
    fused = {
        agg: rank_fusion(arguments, aggregate(pagerank_scores, agg), aggregate(cosine, agg))
        for agg in AGGREGATIONS
    }
    length = [float(len(words(a.corrected_premises))) for a in arguments]
    loco = _loco_row(arguments, pagerank_scores, cosine, length)
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


def _cosines(arguments: Sequence[BenchmarkArgument], embed: EmbedFn) -> list[list[float]]:
    """``cos(p, c)`` of every premise text with its conclusion text, per argument."""
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
    return cosine


def _loco_row(
    arguments: Sequence[BenchmarkArgument],
    pagerank_scores: PremiseScores,
    cosine: list[list[float]],
    length: list[float],
) -> ScoreRow:
    """The ``loco_fusion`` row of :func:`content_rows`, with the weights each conclusion chose."""
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
    return loco
