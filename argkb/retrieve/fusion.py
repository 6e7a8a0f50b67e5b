"""Fusing the evidence of several candidate routes into one ranked list of premise clusters.

The hybrid ranker (:mod:`argkb.query.rankers.hybrid`) has three routes to a
candidate premise, each of which ranks what it found:

* ``claims``: the premise argues for or against a claim similar to the query; ranked by the
  pf-icf probability of its premise cluster P(pi^s|q) (Dumani et al., ECIR 2020, Eq. 3), then by
  its own share P(p^s|q);
* ``bm25``: Lucene BM25 of the premise text for the query;
* ``cosine``: cosine of the premise embedding to the query embedding.

Weighted reciprocal rank fusion (Cormack, Clarke & Buettcher, SIGIR 2009) combines them:
``score(p) = sum_r w_r / (k + rank_r(p))``, a route that did not find ``p`` adding nothing. RRF
needs no calibration of the routes' scores against each other (their raw scores live on
unrelated scales); it was the hybrid's default until 2026-11-26 and is ``--fusion rrf`` now.
Then :func:`group_by_cluster` keeps the best
premise of each premise cluster as its representative, and fills the list with further
candidates when there are fewer clusters than asked for. Pure NumPy; no Neo4j here.

:func:`linear_fusion`, the default, is the other way to combine them: a weighted sum of each
candidate's features, each put on a scale of about 0 to 1 by the caller (the hybrid ranker's
``premise_features``). Where RRF only sees ranks, a linear sum sees *how well* a route matched:
a claim that merely shares the topic lends less than one that says what the query says, and a
premise far ahead on BM25 stays ahead. Its weights are fitted leaving each benchmark out
(docs/results/answer-quality.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

__all__ = ["Group", "group_by_cluster", "linear_fusion", "ranks_by", "reciprocal_rank_fusion"]


def ranks_by(*keys: ArrayLike, found: ArrayLike | None = None) -> NDArray[np.int64]:
    """1-based ranks of the candidates, sorted by ``keys`` descending (first key first).

    Ties are broken by the next key, then by candidate index, so ranks are a permutation.
    Keys are compared to 12 decimals: two values that are equal in exact arithmetic but were
    summed in another order tie, instead of being ordered by rounding noise (which changed
    with the query vector's last bits: one of 200 benchmark queries answered otherwise with
    ONNX Runtime's vectors than with torch's). Candidates with ``found`` False get rank 0
    (the route did not retrieve them).
    """
    import numpy as np

    arrays = [np.round(np.asarray(key, dtype=np.float64), 12) for key in keys]
    n = len(arrays[0])
    mask = np.ones(n, bool) if found is None else np.asarray(found, dtype=bool)
    # np.lexsort sorts by the last key first; negate for descending order
    order = np.lexsort([np.arange(n)] + [-key for key in reversed(arrays)])
    order = order[mask[order]]
    ranks = np.zeros(n, dtype=np.int64)
    ranks[order] = np.arange(1, len(order) + 1)
    return ranks


def reciprocal_rank_fusion(
    ranks: Mapping[str, ArrayLike], weights: Mapping[str, float], k: float = 60.0
) -> NDArray[np.float64]:
    """Weighted RRF: ``sum_r w_r / (k + rank_r)`` over the routes that found each candidate.

    Parameters
    ----------
    ranks : mapping of route name to array_like of int, shape (n,)
        1-based rank of every candidate in that route; 0 where the route did not find it.
    weights : mapping of route name to float
        ``w_r``; a route missing here weighs 0.
    k : float
        The RRF constant (60 in Cormack et al.); larger values flatten the head of each list.
    """
    import numpy as np

    total: NDArray[np.float64] | None = None
    for route, values in ranks.items():
        r = np.asarray(values, dtype=np.float64)
        part = np.where(r > 0, weights.get(route, 0.0) / (k + r), 0.0)
        total = part if total is None else total + part
    if total is None:
        raise ValueError("no route to fuse")
    return total


def linear_fusion(
    features: Mapping[str, ArrayLike], weights: Mapping[str, float]
) -> NDArray[np.float64]:
    """``sum_f w_f * x_f`` over the features (a feature missing from ``weights`` weighs 0).

    Parameters
    ----------
    features : mapping of feature name to array_like of float, shape (n,)
        Each candidate's value of the feature, on a comparable scale (about 0 to 1).
    weights : mapping of feature name to float
        ``w_f``.
    """
    import numpy as np

    total: NDArray[np.float64] | None = None
    for name, values in features.items():
        part = weights.get(name, 0.0) * np.asarray(values, dtype=np.float64)
        total = part if total is None else total + part
    if total is None:
        raise ValueError("no feature to fuse")
    return total


@dataclass(frozen=True)
class Group:
    """One entry of the result list: a representative candidate and the members it stands for."""

    representative: int  # candidate index
    members: tuple[int, ...]  # candidate indices, representative first, best first
    label: int  # premise-cluster label of the representative


def group_by_cluster(
    scores: ArrayLike,
    clusters: Sequence[int] | ArrayLike,
    k: int,
    cluster_scores: Mapping[int, float] | None = None,
    head_priority: ArrayLike | None = None,
) -> list[Group]:
    """At most ``k`` entries, one per premise cluster, best first; never fewer than
    ``min(k, n)`` when there are ``n`` candidates.

    The best-scored candidate of a cluster represents it (the one with the highest
    ``head_priority`` when given, e.g. the longest text), and its other candidates are its
    members. Clusters are ordered by ``cluster_scores`` (label -> score) when given, else by
    their representative's score. When the clusters run out before ``k`` entries, the best
    remaining members become entries of their own after every cluster (and leave their
    cluster's member list), so the list reaches ``k``.
    """
    import numpy as np

    s = np.asarray(scores, dtype=np.float64)
    labels = np.asarray(clusters, dtype=np.int64)
    if k <= 0 or len(s) == 0:
        return []
    order = np.lexsort((np.arange(len(s)), -s))
    first: dict[int, int] = {}
    by_head = order
    if head_priority is not None:
        by_head = np.lexsort((np.arange(len(s)), -s, -np.asarray(head_priority, np.float64)))
    label_of = labels.tolist()  # Python ints: indexing a list is far cheaper than an array
    for index in by_head.tolist():
        first.setdefault(label_of[index], index)
    if cluster_scores is None:
        heads = sorted(first.values(), key=lambda i: (-s[i], i))[:k]
    else:
        heads = sorted(first.values(),
                       key=lambda i: (-cluster_scores[label_of[i]], -s[i], i))[:k]  # fmt: skip
    promoted: list[int] = []
    if len(heads) < k:  # fewer clusters than asked for: promote the best other candidates
        taken = set(heads)
        promoted = [i for i in order.tolist() if i not in taken][: k - len(heads)]
    promoted_set = set(promoted)
    in_order: dict[int, list[int]] = {}  # each cluster's candidates, best first
    for i in order.tolist():
        if i not in promoted_set:
            in_order.setdefault(label_of[i], []).append(i)
    groups = []
    for head in heads:
        label = label_of[head]
        members = [head] + [i for i in in_order[label] if i != head]
        groups.append(Group(head, tuple(members), label))
    # heads are in score order already; promoted candidates come after every cluster
    return groups + [Group(i, (i,), label_of[i]) for i in promoted]
