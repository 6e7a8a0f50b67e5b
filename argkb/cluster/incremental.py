"""Incremental clustering: place new units into existing flat clusters, or cluster them anew.

A full run (:func:`argkb.cluster.hierarchy.cluster_graph`) cuts an agglomerative tree at distance
``cut``. When a corpus is added, re-running it costs time in proportion to the whole graph and
may move old units between clusters. The incremental update keeps every old membership and:

1. assigns each new unit to the existing cluster ``C`` with the smallest linkage distance
   ``D(x, C)`` (complete: the largest cosine distance from ``x`` to a member; average: the mean;
   single: the smallest), provided ``D(x, C) <= cut`` -- the condition under which the full
   algorithm could merge ``{x}`` into ``C`` at the same cut. Units are placed greedily, closest
   first, and ``D`` is taken over the cluster as it stands (old members and new units placed
   before), so a complete-linkage cluster keeps diameter ``<= cut`` and an average-linkage
   cluster keeps its new members' mean distance ``<= cut``;
2. clusters the new units that fit no existing cluster among themselves with the same linkage
   and cut (:func:`~argkb.cluster.hierarchy.cluster_graph`), as new clusters.

Where this differs from a rebuild: old clusters are never split or merged with each other (a
rebuild may merge two old clusters through new units between them, or, for average linkage,
regroup old units); a new unit joins at most one old cluster even when new units together would
have pulled some old members into a new grouping; and the order in which new units are placed
can matter when several compete for one cluster. With complete linkage every cluster the update
yields still satisfies the cut's diameter bound, as the full run's do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

    from argkb.cluster.hierarchy import Linkage


def linkage_distance(
    x: NDArray[np.float64], members: NDArray[np.float64], linkage: Linkage
) -> float:
    """Cosine linkage distance between one L2-normalised vector ``x`` and a cluster's rows."""
    import numpy as np

    distances = np.clip(1.0 - members @ x, 0.0, 2.0)
    if linkage == "complete":
        return float(distances.max())
    if linkage == "average":
        return float(distances.mean())
    return float(distances.min())


def assign_to_clusters(
    vectors: ArrayLike,
    candidates: list[list[int]],
    cluster_vectors: Mapping[int, ArrayLike],
    *,
    linkage: Linkage,
    cut: float,
) -> NDArray[np.int64]:
    """Existing cluster per new unit, or -1 where none is within the linkage ``cut``.

    Parameters
    ----------
    vectors
        Rows: the new units' L2-normalised embeddings.
    candidates
        Per new unit, the existing clusters worth testing (those of its nearest neighbours within
        ``cut``; any cluster within ``cut`` by complete, average or single linkage has a member
        within ``cut``).
    cluster_vectors
        Per candidate cluster, its members' L2-normalised embeddings (rows).
    linkage, cut
        The full run's linkage and cosine distance cut.

    Returns
    -------
    The chosen cluster per row of ``vectors``, -1 for none. New units are placed in order of
    their initial best distance, and each placement is visible to the units placed after it.
    """
    import numpy as np

    x = np.asarray(vectors, dtype=np.float64)
    members = {c: np.asarray(v, dtype=np.float64) for c, v in cluster_vectors.items()}
    result = np.full(len(x), -1, dtype=np.int64)
    first: list[tuple[float, int]] = []
    for row, options in enumerate(candidates):
        known = [c for c in options if c in members and len(members[c])]
        if known:
            best = min(linkage_distance(x[row], members[c], linkage) for c in known)
            if best <= cut:
                first.append((best, row))
    for _, row in sorted(first):
        scored = [
            (linkage_distance(x[row], members[c], linkage), c)
            for c in dict.fromkeys(candidates[row])
            if c in members and len(members[c])
        ]
        distance, chosen = min(scored)
        if distance <= cut:
            result[row] = chosen
            members[chosen] = np.vstack([members[chosen], x[row]])
    return result
