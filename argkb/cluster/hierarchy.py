"""Agglomerative clustering of unit embeddings, exact and scalable through a threshold graph.

Claims are clustered with average linkage (Dumani et al., ECIR 2020, Sec. 5), premises with
complete linkage (Dumani, GvD 2019, Sec. 3), both on cosine distance of L2-normalised
embeddings, cut at a fixed distance ``cut``.

SciPy's hierarchy needs all pairwise distances, O(n^2) memory, so a corpus is not clustered in one
piece. Both linkages only ever merge two clusters when some pair across them is within ``cut``
(complete: every pair is within ``cut``; average: the mean is within ``cut``, so the minimum is),
so no cluster spans two connected components of the graph "distance <= cut". Clustering each
component separately therefore gives exactly the clusters of the whole set, as long as the graph
has every pair within ``cut``. argkb builds that graph from k-nearest-neighbour lists (Neo4j's
vector index), so recall of the graph is what bounds exactness; ``k`` is reported.

A component larger than ``max_block`` (SciPy would need ``max_block^2 / 2`` distances) is split
by raising the similarity threshold of its graph until every piece fits; that is the one
approximation, and it is counted in :class:`ClusterStats`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

Linkage = Literal["average", "complete", "single"]


@dataclass(frozen=True)
class ClusterStats:
    items: int
    clusters: int
    singletons: int
    largest: int
    components: int
    split_components: int  # components above max_block that had to be split


def agglomerative(
    vectors: ArrayLike, *, linkage: Linkage = "average", cut: float = 0.3
) -> NDArray[np.int64]:
    """Flat clusters of ``vectors`` (rows, L2-normalised) by cosine distance cut at ``cut``.

    Returns labels ``0 .. n_clusters-1`` in order of first appearance.
    """
    import numpy as np
    from scipy.cluster.hierarchy import fcluster
    from scipy.cluster.hierarchy import linkage as scipy_linkage
    from scipy.spatial.distance import pdist

    x = np.asarray(vectors, dtype=np.float64)
    if len(x) == 0:
        return np.zeros(0, dtype=np.int64)
    if len(x) == 1:
        return np.zeros(1, dtype=np.int64)
    distances = np.clip(pdist(x, metric="cosine"), 0.0, 2.0)
    tree = scipy_linkage(distances, method=linkage)
    raw = fcluster(tree, t=cut, criterion="distance")
    _, first = np.unique(raw, return_index=True)
    order = np.argsort(np.argsort(first))  # relabel by first appearance, stable across runs
    relabel = np.empty(raw.max() + 1, dtype=np.int64)
    relabel[np.unique(raw)] = order
    return relabel[raw]


def cluster_graph(
    vectors: ArrayLike,
    pair_i: ArrayLike,
    pair_j: ArrayLike,
    pair_similarity: ArrayLike,
    *,
    linkage: Linkage = "average",
    cut: float = 0.3,
    max_block: int = 6000,
) -> tuple[NDArray[np.int64], ClusterStats]:
    """Cluster all rows of ``vectors``, using candidate pairs (i, j, cosine similarity).

    Pairs below similarity ``1 - cut`` are ignored. Returns labels ``0..m-1`` for every row and
    statistics.
    """
    import numpy as np

    x = np.asarray(vectors, dtype=np.float64)
    n = len(x)
    i = np.asarray(pair_i, dtype=np.int64)
    j = np.asarray(pair_j, dtype=np.int64)
    sim = np.asarray(pair_similarity, dtype=np.float64)
    keep = (sim >= 1.0 - cut) & (i != j)
    i, j, sim = i[keep], j[keep], sim[keep]

    labels = np.full(n, -1, dtype=np.int64)
    next_label = 0
    split = 0
    blocks = _components(n, i, j)
    work = [members for members in blocks]
    components = len(work)
    threshold = 1.0 - cut
    while work:
        members = work.pop()
        if len(members) == 1:
            labels[members[0]] = next_label
            next_label += 1
            continue
        if len(members) > max_block:
            split += 1
            work.extend(_split_block(members, i, j, sim, threshold, max_block))
            continue
        local = agglomerative(x[members], linkage=linkage, cut=cut)
        labels[members] = local + next_label
        next_label += int(local.max()) + 1
    sizes = np.bincount(labels)
    stats = ClusterStats(
        items=n,
        clusters=len(sizes),
        singletons=int((sizes == 1).sum()),
        largest=int(sizes.max()) if len(sizes) else 0,
        components=components,
        split_components=split,
    )
    return labels, stats


def _components(n: int, i: NDArray[np.int64], j: NDArray[np.int64]) -> list[NDArray[np.int64]]:
    import numpy as np
    from scipy.sparse import coo_array
    from scipy.sparse.csgraph import connected_components

    graph = coo_array((np.ones(len(i)), (i, j)), shape=(n, n))
    count, labels = connected_components(graph, directed=False)
    order = np.argsort(labels, kind="stable")
    bounds = np.searchsorted(labels[order], np.arange(count + 1))
    return [order[bounds[k] : bounds[k + 1]] for k in range(count)]


def _split_block(
    members: NDArray[np.int64],
    i: NDArray[np.int64],
    j: NDArray[np.int64],
    sim: NDArray[np.float64],
    threshold: float,
    max_block: int,
) -> list[NDArray[np.int64]]:
    """Pieces of an oversized component: its graph at ever higher similarity thresholds."""
    import numpy as np

    inside = np.isin(i, members) & np.isin(j, members)
    local_index = {int(m): k for k, m in enumerate(members)}
    li = np.array([local_index[int(a)] for a in i[inside]], dtype=np.int64)
    lj = np.array([local_index[int(b)] for b in j[inside]], dtype=np.int64)
    ls = sim[inside]
    step = threshold
    while True:
        step = step + (1.0 - step) / 4
        keep = ls >= step
        pieces = _components(len(members), li[keep], lj[keep])
        if max(len(p) for p in pieces) <= max_block:
            return [members[p] for p in pieces]
        if step > 0.999:  # near-identical vectors beyond max_block: cut into fixed slices
            slices = [p[k : k + max_block] for p in pieces for k in range(0, len(p), max_block)]
            return [members[p] for p in slices]
