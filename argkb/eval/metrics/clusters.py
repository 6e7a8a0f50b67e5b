"""Cluster-aware nDCG: Task A and Task B of Dumani et al., ECIR 2020, sec. 6.2, and the
modified nDCG of Fromm et al., ECIR 2021.

Premises are judged through ground-truth clusters: a cluster counts once, at its first
occurrence in the ranking.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import NamedTuple, TypeVar

from argkb.eval.metrics.ranking import (
    Discount,
    MetricInputError,
    check_k,
    dcg,
    discount_weights,
    ndcg_from_gains,
)

PremiseId = TypeVar("PremiseId", bound=Hashable)
"""Type of premise ids."""
ClusterId = TypeVar("ClusterId", bound=Hashable)
"""Type of ground-truth cluster ids."""


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
    check_k(k)
    gains = first_occurrence_gains(ranked_premises, premise_cluster, cluster_relevance)
    return ndcg_from_gains(gains, ideal_cluster_gains(cluster_relevance), k, discount)


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
    check_k(k)
    relevance = _checked_relevance(cluster_relevance)
    discount_weights(0, discount)  # rejects an unknown discount before any work

    positions, sizes, n_lists = _rank_positions(ranked_clusters, premise_cluster, relevance, k)
    weights = discount_weights(len(positions), discount)
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


def _rank_positions(
    ranked_clusters: Iterable[Iterable[PremiseId]],
    premise_cluster: Mapping[PremiseId, ClusterId | None],
    relevance: Mapping[ClusterId, float],
    k: int,
) -> tuple[list[dict[ClusterId | None, int]], list[int], int]:
    """For each of the first ``k`` returned clusters, how many of its distinct premises fall in
    each gaining ground-truth cluster (None: no gain), and its size; and the number of result
    lists over all returned clusters. An empty returned cluster is a :class:`MetricInputError`."""
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

    return positions, sizes, n_lists
