"""Ranking and clustering metrics for evaluating argument retrieval.

Everything here is a pure function over plain Python sequences, mappings or numpy arrays; nothing
touches Neo4j. numpy and scipy are imported inside the functions that need them so that importing
this module (and therefore ``argkb --help``) stays instant.

Two discounts are in use, and every nDCG function says which one it applies:

``"log2(i+1)"``
    The now-standard discount ``1 / log2(i + 1)`` for 1-based rank ``i`` (Burges et al., ICML 2005),
    used by :func:`ndcg_at_k` and :func:`modified_ndcg_at_k`.
``"log2(i)"``
    The discount of the original DCG of Jarvelin & Kekalainen (TOIS 2002) with log base 2: rank 1
    is not discounted and rank ``i >= 2`` is divided by ``log2(i)``, so ranks 1 and 2 both weigh 1.
    This is the discount of Dumani, Neumann & Schenkel, ECIR 2020, sec. 6.2 ("the discount for
    rank i is 1/log2(i) if i >= 2 and 1 otherwise"), the only one of the two that reproduces their
    worked example (nDCG = 0.92), and the default of :func:`task_b_ndcg_at_k` and
    :func:`task_a_ndcg_at_k`.

References
----------
Dumani, Neumann & Schenkel, "A Framework for Argument Retrieval: Ranking Argument Clusters by
Frequency and Specificity", ECIR 2020 (``papers/003``), sec. 6.2: Task A and Task B.
Fromm et al., "Diversity Aware Relevance Learning for Argument Search", ECIR 2021
(``papers/000``), sec. 4 and Table 1: the modified nDCG.
Wachsmuth, Stein & Ajjour, "PageRank for Argument Relevance", EACL 2017 (``papers/004``), sec. 6
and Table 2: Kendall's tau against the benchmark rankings.
Hubert & Arabie, "Comparing partitions", J. Classification 2 (1985): adjusted Rand index.
Bagga & Baldwin, "Algorithms for scoring coreference chains", LREC 1998 workshop: B-cubed.
Manning, Raghavan & Schutze, "Introduction to Information Retrieval" (2008), sec. 16.3: NMI.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal, NamedTuple, TypeAlias, TypeVar

from argkb.errors import ArgKBError

if TYPE_CHECKING:
    from scipy.sparse import coo_matrix

__all__ = [
    "BCubedScores",
    "Discount",
    "MetricInputError",
    "TaskAScores",
    "adjusted_rand_index",
    "bcubed",
    "dcg",
    "first_occurrence_gains",
    "ideal_cluster_gains",
    "kendall_tau",
    "modified_ndcg_at_k",
    "ndcg_at_k",
    "normalized_mutual_information",
    "precision_at_k",
    "task_a_ndcg_at_k",
    "task_b_ndcg_at_k",
]

Discount: TypeAlias = Literal["log2(i+1)", "log2(i)"]
"""Name of a rank discount; see the module docstring."""

_DISCOUNTS: tuple[str, ...] = ("log2(i+1)", "log2(i)")

PremiseId = TypeVar("PremiseId", bound=Hashable)
"""Type of premise ids."""
ClusterId = TypeVar("ClusterId", bound=Hashable)
"""Type of ground-truth cluster ids."""


class MetricInputError(ArgKBError, ValueError):
    """A metric was called with inputs it cannot score (bad cutoff, unknown cluster, ...)."""


class TaskAScores(NamedTuple):
    """Aggregated nDCG@k over all result lists derived from a ranked list of clusters.

    Attributes
    ----------
    average, minimum, maximum : float
        Mean, smallest and largest nDCG@k over all result lists.
    n_lists : int
        Number of result lists aggregated (product of the distinct cluster sizes).
    minimum_is_exact : bool
        False only when the exact minimum exceeded ``max_states`` and ``minimum`` is the best value
        found by seeded random search, i.e. an upper bound on the true minimum.
    """

    average: float
    minimum: float
    maximum: float
    n_lists: int
    minimum_is_exact: bool


class BCubedScores(NamedTuple):
    """B-cubed precision, recall and their harmonic mean (Bagga & Baldwin, 1998)."""

    precision: float
    recall: float
    f1: float


# ---------------------------------------------------------------------------------------------
# Graded-relevance ranking metrics
# ---------------------------------------------------------------------------------------------


def _check_k(k: int | None, *, allow_none: bool = False) -> None:
    if k is None and allow_none:
        return
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise MetricInputError(f"the cutoff k must be a positive integer, got {k!r}")


def _discount_weights(n: int, discount: Discount) -> list[float]:
    """Return the multiplicative weights of ranks 1..n under ``discount``."""
    if discount == "log2(i+1)":
        return [1.0 / math.log2(rank + 1) for rank in range(1, n + 1)]
    if discount == "log2(i)":
        # log2(1) = 0: Jarvelin & Kekalainen leave ranks below the log base undiscounted.
        return [1.0 if rank < 2 else 1.0 / math.log2(rank) for rank in range(1, n + 1)]
    raise MetricInputError(f"unknown discount {discount!r}; choose one of {_DISCOUNTS}")


def dcg(gains: Iterable[float], k: int | None = None, discount: Discount = "log2(i+1)") -> float:
    """Discounted cumulative gain of a gain vector.

    ``DCG@k = sum_{i=1..k} gain_i * w(i)`` with ``w(i) = 1 / log2(i + 1)`` for the default
    ``"log2(i+1)"`` discount (Burges et al., ICML 2005), or ``w(1) = 1`` and
    ``w(i) = 1 / log2(i)`` for ``i >= 2`` with ``"log2(i)"`` (Jarvelin & Kekalainen, TOIS 2002,
    base 2; the discount of Dumani et al., ECIR 2020, sec. 6.2).

    Parameters
    ----------
    gains : iterable of float
        Gain of the result at rank 1, 2, ... (the gain is used as is, not ``2**rel - 1``).
    k : int, optional
        Cutoff; ranks beyond ``k`` are ignored. ``None`` scores the whole vector.
    discount : {"log2(i+1)", "log2(i)"}
        Rank discount, see above.

    Returns
    -------
    float
        The discounted cumulative gain; 0.0 for an empty vector.
    """
    _check_k(k, allow_none=True)
    values = [float(g) for g in gains]
    if k is not None:
        values = values[:k]
    weights = _discount_weights(len(values), discount)
    return math.fsum(g * w for g, w in zip(values, weights, strict=True))


def _ndcg_from_gains(
    gains: Sequence[float], ideal: Iterable[float], k: int, discount: Discount
) -> float:
    ideal_gains = sorted((float(g) for g in ideal), reverse=True)
    idcg = dcg(ideal_gains, k, discount)
    if idcg <= 0.0:
        return 0.0
    return dcg(gains, k, discount) / idcg


def ndcg_at_k(
    ranked_relevances: Iterable[float],
    ideal_relevances: Iterable[float],
    k: int,
    discount: Discount = "log2(i+1)",
) -> float:
    """Normalised discounted cumulative gain at cutoff ``k`` (standard, graded relevance).

    ``nDCG@k = DCG@k(ranked) / DCG@k(ideal)`` where the ideal list is ``ideal_relevances`` sorted
    in descending order (Jarvelin & Kekalainen, TOIS 2002, with the ``1 / log2(i + 1)`` discount
    of Burges et al., ICML 2005). Used for the nDCG@10 of Wenzlitschke & Suelzle, Touche 2022
    (``papers/002``).

    Parameters
    ----------
    ranked_relevances : iterable of float
        Relevance grade of the returned item at rank 1, 2, ...; the grade is the gain.
    ideal_relevances : iterable of float
        Grades of all judged items for the query, in any order (sorted here).
    k : int
        Cutoff, at least 1.
    discount : {"log2(i+1)", "log2(i)"}
        Rank discount; the default is the standard one.

    Returns
    -------
    float
        nDCG@k in [0, 1] for grades that the ideal list covers; 0.0 when the ideal DCG is 0 (no
        relevant item exists), the convention of every nDCG in this module.
    """
    _check_k(k)
    return _ndcg_from_gains([float(g) for g in ranked_relevances], ideal_relevances, k, discount)


def precision_at_k(ranked_relevances: Iterable[float], k: int) -> float:
    """Precision at cutoff ``k``: the fraction of the first ``k`` results that are relevant.

    A result is relevant when its grade is greater than 0, so boolean flags and graded judgements
    are both accepted. The denominator is always ``k``: a list shorter than ``k`` counts its missing
    ranks as non-relevant (the trec_eval convention; Wenzlitschke & Suelzle, Touche 2022, P@10).

    Parameters
    ----------
    ranked_relevances : iterable of float or bool
        Grade or relevance flag of the result at rank 1, 2, ...
    k : int
        Cutoff, at least 1.

    Returns
    -------
    float
        Precision@k in [0, 1].
    """
    _check_k(k)
    relevant = sum(1 for i, grade in enumerate(ranked_relevances) if i < k and float(grade) > 0)
    return relevant / k


def kendall_tau(x: Iterable[float], y: Iterable[float]) -> float:
    """Kendall's tau-b rank correlation between two score vectors over the same items.

    Delegates to :func:`scipy.stats.kendalltau` (``variant="b"``, which corrects for ties in either
    vector as SciPy does; ``nan_policy="propagate"``), as used to compare argument rankings with
    the Webis-ArgRank-17 benchmark in Wachsmuth, Stein & Ajjour, EACL 2017 (``papers/004``), sec. 6.

    Parameters
    ----------
    x, y : iterable of float
        Scores (or ranks) of the same items in the same order.

    Returns
    -------
    float
        tau-b in [-1, 1]. ``nan`` when tau-b is undefined: fewer than two items, either vector
        constant (no untied pair), or a NaN in either input.

    Raises
    ------
    MetricInputError
        If the two vectors differ in length.
    """
    xs = [float(v) for v in x]
    ys = [float(v) for v in y]
    if len(xs) != len(ys):
        raise MetricInputError(f"kendall_tau needs equal lengths, got {len(xs)} and {len(ys)}")
    if len(xs) < 2 or len(set(xs)) < 2 or len(set(ys)) < 2:
        # Undefined; checked here so that no SciPy version warns about it.
        return math.nan
    from scipy.stats import kendalltau

    result = kendalltau(xs, ys, variant="b", nan_policy="propagate")
    return float(result.statistic)


# ---------------------------------------------------------------------------------------------
# Cluster-aware nDCG: Dumani et al., ECIR 2020, sec. 6.2 and Fromm et al., ECIR 2021
# ---------------------------------------------------------------------------------------------


def _checked_relevance(cluster_relevance: Mapping[ClusterId, float]) -> dict[ClusterId, float]:
    relevance: dict[ClusterId, float] = {}
    for cluster, rel in cluster_relevance.items():
        value = float(rel)
        if not math.isfinite(value) or value < 0:
            raise MetricInputError(
                f"relevance of ground-truth cluster {cluster!r} must be finite and >= 0, "
                f"got {rel!r}"
            )
        relevance[cluster] = value
    return relevance


def _cluster_of(
    premise: PremiseId,
    premise_cluster: Mapping[PremiseId, ClusterId | None],
    relevance: Mapping[ClusterId, float],
) -> ClusterId | None:
    """Ground-truth cluster of ``premise``, or None when it is in no cluster."""
    cluster = premise_cluster.get(premise)
    if cluster is not None and cluster not in relevance:
        raise MetricInputError(
            f"premise {premise!r} is mapped to ground-truth cluster {cluster!r}, "
            "which has no entry in cluster_relevance"
        )
    return cluster


def first_occurrence_gains(
    ranked_premises: Iterable[PremiseId],
    premise_cluster: Mapping[PremiseId, ClusterId | None],
    cluster_relevance: Mapping[ClusterId, float],
) -> list[float]:
    """Gain vector of a premise ranking under the novelty rule of Dumani et al., ECIR 2020.

    Sec. 6.2 (Task B, alpha-nDCG with alpha = 1 and each ground-truth cluster one nugget): the
    result at rank ``i`` gains ``rel(g)`` if it belongs to ground-truth cluster ``g`` and no result
    of ``g`` appeared at ranks ``1..i-1``; it gains 0 if it repeats a cluster or is in no cluster.

    Parameters
    ----------
    ranked_premises : iterable of hashable
        Premise ids, best first.
    premise_cluster : mapping
        Premise id -> ground-truth cluster id. Premises absent (or mapped to None) are in no
        cluster, e.g. those judged not relevant.
    cluster_relevance : mapping
        Ground-truth cluster id -> graded relevance ``rel(g) >= 0``.

    Returns
    -------
    list of float
        One gain per ranked premise.

    Raises
    ------
    MetricInputError
        If a premise maps to a cluster without relevance, or a relevance is negative or not finite.
    """
    relevance = _checked_relevance(cluster_relevance)
    seen: set[ClusterId] = set()
    gains: list[float] = []
    for premise in ranked_premises:
        cluster = _cluster_of(premise, premise_cluster, relevance)
        if cluster is None or cluster in seen:
            gains.append(0.0)
        else:
            seen.add(cluster)
            gains.append(relevance[cluster])
    return gains


def ideal_cluster_gains(cluster_relevance: Mapping[ClusterId, float]) -> list[float]:
    """Ideal gain vector of Dumani et al., ECIR 2020, sec. 6.2: ``rel(G_1) >= rel(G_2) >= ...``.

    Every ground-truth cluster (every key of ``cluster_relevance``) contributes its relevance once,
    sorted in descending order.
    """
    return sorted(_checked_relevance(cluster_relevance).values(), reverse=True)


def task_b_ndcg_at_k(
    ranked_premises: Iterable[PremiseId],
    premise_cluster: Mapping[PremiseId, ClusterId | None],
    cluster_relevance: Mapping[ClusterId, float],
    k: int,
    *,
    discount: Discount = "log2(i)",
) -> float:
    """Task B nDCG@k of Dumani, Neumann & Schenkel, ECIR 2020, sec. 6.2 (simplified alpha-nDCG).

    The system returns a ranked list of premises. Gains follow :func:`first_occurrence_gains`
    (only the first premise of each ground-truth cluster gains ``rel(cluster)``), the ideal vector
    is :func:`ideal_cluster_gains`, and both are cut at ``k``. The default discount is the paper's
    own: 1 for rank 1 and ``1 / log2(i)`` for ``i >= 2`` (Jarvelin & Kekalainen, TOIS 2002, base 2),
    which reproduces the paper's worked example: gains 2, 1, 0, 0, 0, 0, 0, 1 give
    DCG = 2 + 1 + 1/log2(8) = 10/3, the ideal 2, 1, 1 gives 2 + 1 + 1/log2(3) ~ 3.63, so
    nDCG = 0.92. With the standard ``"log2(i+1)"`` discount the same example scores 0.94.

    Parameters
    ----------
    ranked_premises : iterable of hashable
        Premise ids, best first.
    premise_cluster : mapping
        Premise id -> ground-truth cluster id; premises absent or mapped to None gain 0.
    cluster_relevance : mapping
        Ground-truth cluster id -> graded relevance (>= 0); its keys are the ground-truth clusters.
    k : int
        Cutoff, at least 1.
    discount : {"log2(i)", "log2(i+1)"}
        Rank discount; ``"log2(i)"`` is the paper's.

    Returns
    -------
    float
        nDCG@k in [0, 1]; 0.0 when the ideal DCG is 0 (no relevant ground-truth cluster).
    """
    _check_k(k)
    gains = first_occurrence_gains(ranked_premises, premise_cluster, cluster_relevance)
    return _ndcg_from_gains(gains, ideal_cluster_gains(cluster_relevance), k, discount)


def modified_ndcg_at_k(
    ranked_premises: Iterable[PremiseId],
    premise_cluster: Mapping[PremiseId, ClusterId | None],
    cluster_relevance: Mapping[ClusterId, float],
    k: int,
) -> float:
    """Modified nDCG@k (mnDCG) of Fromm et al., ECIR 2021, sec. 4 and Table 1.

    The paper defines it as "the modified nDCG from [Dumani et al., ECIR 2020]: only the first
    occurrence from a premise ground truth cluster yields positive gain; duplicates do not give
    any gain". Gain vector and ideal vector are therefore exactly those of
    :func:`task_b_ndcg_at_k`, and this function calls it. The one difference is the discount: the
    authors' released code (``mdcg_score`` in ``src/arclus/evaluation.py`` of
    github.com/fromm-m/ecir2021-am-search) divides the gain at 0-based position ``i`` by
    ``log2(i + 2)``, i.e. the standard ``1 / log2(rank + 1)``, where Dumani et al. do not discount
    rank 2. On Dumani et al.'s worked example this gives 0.94 instead of 0.92; Fromm et al.'s
    footnote 2 records that their numbers for the Dumani et al. methods deviate from the original
    ones. Two further details of that code need no emulation here: it returns 0 when the ideal DCG
    is 0 (as this function does), and it drops ranked ids absent from the judged data before
    scoring, which cannot happen with its inputs (all candidates are judged).

    Parameters
    ----------
    ranked_premises, premise_cluster, cluster_relevance, k
        As in :func:`task_b_ndcg_at_k`.

    Returns
    -------
    float
        mnDCG@k in [0, 1].
    """
    return task_b_ndcg_at_k(
        ranked_premises, premise_cluster, cluster_relevance, k, discount="log2(i+1)"
    )


# -- Task A -------------------------------------------------------------------------------------


def _expected_dcg(
    positions: Sequence[Mapping[ClusterId | None, int]],
    sizes: Sequence[int],
    relevance: Mapping[ClusterId, float],
    weights: Sequence[float],
) -> float:
    """Mean DCG over all result lists, exactly, in O(total number of premises).

    Picking one premise per returned cluster uniformly and independently enumerates every result
    list exactly once with equal weight, so the mean over lists is an expectation under
    independence. By linearity, ``E[DCG] = sum_i w(i) sum_g P(g at i) rel(g) P(g not at 1..i-1)``
    and the last factor is the product ``prod_{j<i} (1 - P(g at j))`` by independence, which
    ``survival`` carries along the ranking.
    """
    survival: dict[ClusterId, float] = {}
    total = 0.0
    for counts, size, weight in zip(positions, sizes, weights, strict=True):
        expected_gain = 0.0
        for cluster, count in counts.items():
            if cluster is not None:
                expected_gain += count / size * relevance[cluster] * survival.get(cluster, 1.0)
        total += weight * expected_gain
        for cluster, count in counts.items():
            if cluster is not None:
                survival[cluster] = survival.get(cluster, 1.0) * (1.0 - count / size)
    return total


def _max_dcg(
    positions: Sequence[Mapping[ClusterId | None, int]],
    relevance: Mapping[ClusterId, float],
    weights: Sequence[float],
) -> float:
    """Largest DCG over all result lists, as a maximum-weight bipartite matching.

    Every list's DCG is the weight of the matching "first occurrence of cluster g at rank i" with
    edge weight ``w(i) rel(g)``; conversely a list realising any matching scores at least its
    weight (an unmatched rank may only move a first occurrence earlier, where ``w`` is no smaller,
    or add a gain). So the maximum is the assignment optimum, solved by
    :func:`scipy.optimize.linear_sum_assignment` in O(n^3) with n = max(ranks, clusters).
    """
    index: dict[ClusterId, int] = {}
    for counts in positions:
        for cluster in counts:
            if cluster is not None:
                index.setdefault(cluster, len(index))
    if not index:
        return 0.0
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    weight = np.zeros((len(positions), len(index)))
    for i, counts in enumerate(positions):
        for cluster in counts:
            if cluster is not None:
                weight[i, index[cluster]] = weights[i] * relevance[cluster]
    rows, cols = linear_sum_assignment(weight, maximize=True)
    # fsum: a list matching the ideal must score exactly 1, not 1 + 2e-16.
    return math.fsum(float(w) for w in weight[rows, cols])


def _min_dcg(
    positions: Sequence[Mapping[ClusterId | None, int]],
    relevance: Mapping[ClusterId, float],
    weights: Sequence[float],
    max_states: int,
) -> float | None:
    """Smallest DCG over all result lists by exact dynamic programming; None past ``max_states``.

    Two exchange arguments, both relying on the discount being non-increasing in rank:

    * A rank whose cluster holds a premise that can never gain (in no ground-truth cluster, or
      relevance 0) takes it: a cluster it would open instead can be opened later at no higher cost.
      Only the remaining "forced" ranks matter.
    * A forced rank whose options include an already opened cluster repeats it for free;
      otherwise it opens one of its clusters ``g`` at cost ``w(i) rel(g)``, which then covers every
      later forced rank offering ``g``.

    The state after a forced rank is the set of later forced ranks already covered (a bitmask), so
    there are at most ``2^f`` states for ``f`` forced ranks within the cutoff, and the work is
    O(2^f * clusters per rank). The problem contains weighted set cover, so no polynomial exact
    method is expected; with the usual cutoffs (k = 5, 10, so f <= 10) the programme is tiny.
    """
    forced: list[tuple[int, list[ClusterId]]] = []
    for i, counts in enumerate(positions):
        if None not in counts:
            forced.append((i, [cluster for cluster in counts if cluster is not None]))
    cover: dict[ClusterId, int] = {}
    for t, (_, clusters) in enumerate(forced):
        for cluster in clusters:
            cover[cluster] = cover.get(cluster, 0) | (1 << t)

    states: dict[int, float] = {0: 0.0}
    for t, (i, clusters) in enumerate(forced):
        bit = 1 << t
        future = ~((bit << 1) - 1)  # keeps only the bits of later forced ranks
        successors: dict[int, float] = {}
        for mask, cost in states.items():
            if mask & bit:
                moves = [(mask & future, cost)]
            else:
                moves = [
                    ((mask | cover[g]) & future, cost + weights[i] * relevance[g]) for g in clusters
                ]
            for successor, new_cost in moves:
                if new_cost < successors.get(successor, math.inf):
                    successors[successor] = new_cost
        if len(successors) > max_states:
            return None
        states = successors
    return min(states.values())


def _sampled_min_dcg(
    positions: Sequence[Mapping[ClusterId | None, int]],
    relevance: Mapping[ClusterId, float],
    weights: Sequence[float],
    n_samples: int,
    seed: int,
) -> float:
    """Best DCG among ``n_samples`` random result lists: an upper bound on the minimum.

    Ranks with a premise that can never gain take it (first exchange argument of
    :func:`_min_dcg`); the other ranks draw one of their clusters uniformly with a seeded RNG.
    """
    rng = random.Random(seed)
    forced = [
        (weights[i], [cluster for cluster in counts if cluster is not None])
        for i, counts in enumerate(positions)
        if None not in counts
    ]
    best = math.inf
    for _ in range(max(1, n_samples)):
        seen: set[ClusterId] = set()
        total = 0.0
        for weight, clusters in forced:
            cluster = rng.choice(clusters)
            if cluster not in seen:
                seen.add(cluster)
                total += weight * relevance[cluster]
        best = min(best, total)
    return best


def task_a_ndcg_at_k(
    ranked_clusters: Iterable[Iterable[PremiseId]],
    premise_cluster: Mapping[PremiseId, ClusterId | None],
    cluster_relevance: Mapping[ClusterId, float],
    k: int,
    *,
    discount: Discount = "log2(i)",
    max_states: int = 1 << 20,
    n_samples: int = 10_000,
    seed: int = 0,
) -> TaskAScores:
    """Task A nDCG@k of Dumani, Neumann & Schenkel, ECIR 2020, sec. 6.2 (average, min, max).

    The system returns a ranked list of premise clusters. Every result list that picks one premise
    from each returned cluster, in cluster order, is scored with :func:`task_b_ndcg_at_k`; the
    paper aggregates these scores by average, minimum and maximum (its Table 2). The lists are not
    enumerated (their number is the product of the cluster sizes). The ideal DCG is the same for
    all lists, so each aggregate is the corresponding aggregate of DCG@k divided by it, and only
    the first ``k`` returned clusters matter (later choices multiply every outcome equally):

    * average -- exact by independence: each list is one independent uniform choice per cluster,
      so ``E[gain at rank i] = sum_g P_i(g) rel(g) prod_{j<i} (1 - P_j(g))``, where ``P_j(g)`` is
      the share of returned cluster ``j``'s premises in ground-truth cluster ``g``; the ranks are
      coupled only through these products. O(number of premises in the first k clusters).
    * maximum -- exact, a maximum-weight assignment of ranks to ground-truth clusters with weight
      ``w(i) rel(g)``; O(n^3), n = max(k, ground-truth clusters offered).
    * minimum -- exact dynamic programme over the set of covered "forced" ranks (ranks whose
      cluster holds only premises that gain); O(2^f * clusters per rank) for ``f <= k`` forced
      ranks. If a layer exceeds ``max_states`` states (impossible for k <= 20 with the default)
      the minimum is instead the best of ``n_samples`` seeded random lists, an upper bound on the
      true minimum, and ``minimum_is_exact`` is False.

    Parameters
    ----------
    ranked_clusters : iterable of iterables of hashable
        Returned clusters of premise ids, best first. Each cluster is a set: repeated ids within
        one cluster count once. The same id may appear in several clusters.
    premise_cluster : mapping
        Premise id -> ground-truth cluster id; premises absent or mapped to None gain 0.
    cluster_relevance : mapping
        Ground-truth cluster id -> graded relevance (>= 0); its keys are the ground-truth clusters.
    k : int
        Cutoff, at least 1.
    discount : {"log2(i)", "log2(i+1)"}
        Rank discount; must be non-increasing in rank (both are). ``"log2(i)"`` is the paper's.
    max_states : int
        Largest number of dynamic-programme states per rank before falling back to sampling.
    n_samples, seed : int
        Size and seed of the random search used only for that fallback.

    Returns
    -------
    TaskAScores
        ``average``, ``minimum``, ``maximum`` nDCG@k, the number of result lists ``n_lists``, and
        ``minimum_is_exact``. All scores are 0.0 when the ideal DCG is 0.

    Raises
    ------
    MetricInputError
        If a returned cluster is empty (no result list exists), a premise maps to a cluster without
        relevance, a relevance is negative, or ``k`` is not a positive integer.
    """
    _check_k(k)
    relevance = _checked_relevance(cluster_relevance)
    _discount_weights(0, discount)  # rejects an unknown discount before any work

    positions: list[dict[ClusterId | None, int]] = []
    sizes: list[int] = []
    n_lists = 1
    for rank, members in enumerate(ranked_clusters, start=1):
        premises = list(dict.fromkeys(members))
        if not premises:
            raise MetricInputError(f"returned cluster at rank {rank} is empty")
        n_lists *= len(premises)
        if rank > k:
            continue
        counts: dict[ClusterId | None, int] = {}
        for premise in premises:
            cluster = _cluster_of(premise, premise_cluster, relevance)
            label = None if cluster is None or relevance[cluster] == 0.0 else cluster
            counts[label] = counts.get(label, 0) + 1
        positions.append(counts)
        sizes.append(len(premises))

    weights = _discount_weights(len(positions), discount)
    idcg = dcg(ideal_cluster_gains(relevance), k, discount)
    if idcg <= 0.0:
        return TaskAScores(0.0, 0.0, 0.0, n_lists, True)
    average = _expected_dcg(positions, sizes, relevance, weights)
    maximum = _max_dcg(positions, relevance, weights)
    minimum = _min_dcg(positions, relevance, weights, max_states)
    minimum_is_exact = minimum is not None
    if minimum is None:
        minimum = _sampled_min_dcg(positions, relevance, weights, n_samples, seed)
    return TaskAScores(average / idcg, minimum / idcg, maximum / idcg, n_lists, minimum_is_exact)


# ---------------------------------------------------------------------------------------------
# Clustering agreement
# ---------------------------------------------------------------------------------------------


def _codes(labels: Iterable[Hashable]) -> tuple[list[int], int]:
    """Integer codes for arbitrary hashable labels, and the number of distinct labels."""
    index: dict[Hashable, int] = {}
    codes = [index.setdefault(label, len(index)) for label in labels]
    return codes, len(index)


def _contingency(
    labels_true: Iterable[Hashable], labels_pred: Iterable[Hashable]
) -> tuple[coo_matrix, int]:
    """Sparse contingency table (rows: true classes, columns: predicted clusters) and n."""
    true_codes, n_true = _codes(labels_true)
    pred_codes, n_pred = _codes(labels_pred)
    if len(true_codes) != len(pred_codes):
        raise MetricInputError(
            f"label sequences differ in length: {len(true_codes)} and {len(pred_codes)}"
        )
    if not true_codes:
        raise MetricInputError("label sequences are empty")
    import numpy as np
    from scipy.sparse import coo_matrix

    table = coo_matrix(
        (np.ones(len(true_codes), dtype=np.int64), (true_codes, pred_codes)),
        shape=(n_true, n_pred),
    )
    table.sum_duplicates()
    return table, len(true_codes)


def adjusted_rand_index(labels_true: Iterable[Hashable], labels_pred: Iterable[Hashable]) -> float:
    """Adjusted Rand index of two partitions of the same items (Hubert & Arabie, 1985).

    With ``n_ij`` the contingency table, ``a_i`` and ``b_j`` its row and column sums and
    ``N = C(n, 2)``: ``ARI = (sum C(n_ij,2) - E) / ((sum C(a_i,2) + sum C(b_j,2)) / 2 - E)`` with
    ``E = sum C(a_i,2) * sum C(b_j,2) / N``. Computed in exact integer arithmetic. The index is
    symmetric and invariant under renaming of labels.

    Parameters
    ----------
    labels_true, labels_pred : iterable of hashable
        Cluster label of each item, same items in the same order.

    Returns
    -------
    float
        ARI in [-1, 1]; 1 for identical partitions, about 0 for independent ones. When the
        denominator vanishes (only if both partitions are all-singletons or both one cluster, or
        n = 1) the partitions agree and 1.0 is returned, as scikit-learn does.
    """
    table, n = _contingency(labels_true, labels_pred)

    def pairs(counts: Iterable[int]) -> int:
        return sum(int(c) * (int(c) - 1) // 2 for c in counts)

    together_both = pairs(table.data)
    together_true = pairs(table.sum(axis=1).A1)
    together_pred = pairs(table.sum(axis=0).A1)
    total = n * (n - 1) // 2
    numerator = 2 * (together_both * total - together_true * together_pred)
    denominator = total * (together_true + together_pred) - 2 * together_true * together_pred
    if denominator == 0:
        return 1.0
    return numerator / denominator


def normalized_mutual_information(
    labels_true: Iterable[Hashable], labels_pred: Iterable[Hashable]
) -> float:
    """Normalised mutual information with arithmetic-mean normalisation.

    ``NMI = I(U; V) / ((H(U) + H(V)) / 2)``, the normalisation of Manning, Raghavan & Schutze,
    IIR (2008), sec. 16.3, and of scikit-learn's default ``average_method="arithmetic"``. The
    logarithm base cancels. Symmetric and invariant under renaming of labels.

    Parameters
    ----------
    labels_true, labels_pred : iterable of hashable
        Cluster label of each item, same items in the same order.

    Returns
    -------
    float
        NMI in [0, 1]. 1.0 when both partitions are a single cluster (both entropies 0, as
        scikit-learn does); 0.0 when exactly one of them is.
    """
    table, n = _contingency(labels_true, labels_pred)
    n_true, n_pred = table.shape
    if n_true == 1 and n_pred == 1:
        return 1.0
    import numpy as np

    rows = table.sum(axis=1).A1.astype(float)
    cols = table.sum(axis=0).A1.astype(float)
    cells = table.data.astype(float)
    entropy_true = -float(np.sum(rows / n * np.log(rows / n)))
    entropy_pred = -float(np.sum(cols / n * np.log(cols / n)))
    mutual = float(
        np.sum(
            cells / n * (np.log(cells) + math.log(n) - np.log(rows[table.row] * cols[table.col]))
        )
    )
    # Rounding can push an exactly-zero mutual information slightly below 0.
    mutual = max(mutual, 0.0)
    return mutual / ((entropy_true + entropy_pred) / 2.0)


def bcubed(labels_true: Iterable[Hashable], labels_pred: Iterable[Hashable]) -> BCubedScores:
    """B-cubed precision, recall and F1 of a clustering against a reference (Bagga & Baldwin, 1998).

    Per item ``e`` with predicted cluster ``C(e)`` and reference class ``L(e)``:
    ``precision(e) = |C(e) & L(e)| / |C(e)|`` and ``recall(e) = |C(e) & L(e)| / |L(e)|``; both are
    averaged over all items with equal weight, and F1 is the harmonic mean of the two averages
    (Amigo et al., Information Retrieval 12, 2009). Via the contingency table:
    ``precision = sum_ij n_ij^2 / |C_j| / n`` and ``recall = sum_ij n_ij^2 / |L_i| / n``.

    Parameters
    ----------
    labels_true : iterable of hashable
        Reference class of each item.
    labels_pred : iterable of hashable
        Predicted cluster of each item, same items in the same order.

    Returns
    -------
    BCubedScores
        ``precision``, ``recall`` and ``f1``, each in (0, 1]. Swapping the arguments swaps
        precision and recall.
    """
    table, n = _contingency(labels_true, labels_pred)
    rows = table.sum(axis=1).A1.astype(float)
    cols = table.sum(axis=0).A1.astype(float)
    squared = table.data.astype(float) ** 2
    precision = float((squared / cols[table.col]).sum()) / n
    recall = float((squared / rows[table.row]).sum()) / n
    f1 = 2 * precision * recall / (precision + recall)
    return BCubedScores(precision, recall, f1)
