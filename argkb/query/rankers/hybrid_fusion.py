"""Scoring one side of the hybrid ranker's candidates: the pool, the two fusions, the entries.

:func:`argkb.query.rankers.hybrid.side_pools` gathers a :class:`SidePool` per side (each route's
evidence for each candidate premise); :func:`fuse_pool` turns it into at most ``k`` entries, one
per premise cluster, by the :class:`Fusion` the settings ask for: weighted reciprocal rank fusion
of the routes, or the linear fusion of each premise's features (:func:`premise_features`). Pure
NumPy, no Neo4j: the tuning scripts (bench/linear_study.py, bench/tune_hybrid.py) replay
recorded pools through these very functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from argkb.query.settings import QuerySettings

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np
    from numpy.typing import NDArray

# the linear fusion's features (premise_features), each weighted by the setting linear_<name>
LINEAR_FEATURES = ("bm25", "cosine", "claim", "support", "length", "argument")


@dataclass(frozen=True)
class SidePool:
    """What the routes know of the candidates on one side (arrays aligned by candidate)."""

    premises: list[int]  # internal ids
    labels: NDArray[np.int64]  # premise-cluster label
    cluster_p: NDArray[np.float64]  # P(pi^s|q) of the candidate's cluster (Eq. 3)
    own: NDArray[np.float64]  # P(p^s|q), the candidate's own share; 0: not via a claim
    bm25: NDArray[np.float64]  # BM25 score for the query; 0 where the route did not find it
    found_bm25: NDArray[np.bool_]
    cosine: NDArray[np.float64]  # cosine to the query
    vector_hit: NDArray[np.bool_]  # among the vector route's hits
    words: NDArray[np.int64]  # text length, for the "longest" representative
    # the argumentativeness prior's logit (argkb.retrieve.argument_prior); None: not asked for
    argument: NDArray[np.float64] | None = None
    # cosine of the query with the most similar conclusion the premise serves on this side
    # (0 where no conclusion has an embedding); None in pools recorded before it existed
    claim_cos: NDArray[np.float64] | None = None
    bm25_max: float = 0.0  # the best BM25 of any candidate of the query (both sides)


@dataclass(frozen=True)
class Fusion:
    """The route weights and RRF constant of the hybrid ranker; the defaults are the settings'
    (:class:`~argkb.query.settings.QuerySettings` ``weight_*`` and ``rrf_k``)."""

    claims: float
    bm25: float
    cosine: float
    rrf_k: float
    argument: float = 0.0  # weight of the argumentativeness route (needs SidePool.argument)
    # feature -> weight of the linear fusion (premise_features); None: reciprocal rank fusion
    linear: dict[str, float] | None = None

    @classmethod
    def of(cls, s: QuerySettings) -> Fusion:
        """The fusion the settings ``s`` ask for."""
        linear = (
            {name: float(getattr(s, f"linear_{name}")) for name in LINEAR_FEATURES}
            if s.fusion == "linear" else None
        )  # fmt: skip
        return cls(s.weight_claims, s.weight_bm25, s.weight_cosine, s.rrf_k, s.weight_argument,
                   linear)  # fmt: skip

    def weights(self) -> dict[str, float]:
        weights = {"claims": self.claims, "bm25": self.bm25, "cosine": self.cosine}
        if self.argument:
            weights["argument"] = self.argument
        return weights


@dataclass(frozen=True)
class Entry:
    """One entry of a fused list: candidate indices into the pool, best first."""

    score: float
    members: list[int]
    label: int
    explain: dict[str, Any]


def premise_ranks(pool: SidePool) -> dict[str, NDArray[np.int64]]:
    """Each route's 1-based rank of every candidate in the pool (0 where it did not find it):
    ``claims`` by P(pi^s|q) then P(p^s|q), ``bm25`` by score, ``cosine`` over every candidate."""
    from argkb.retrieve.fusion import ranks_by

    ranks = {
        "claims": ranks_by(pool.cluster_p, pool.own, found=pool.own > 0),
        "bm25": ranks_by(pool.bm25, found=pool.found_bm25),
        "cosine": ranks_by(pool.cosine),
    }
    if pool.argument is not None:
        ranks["argument"] = ranks_by(pool.argument)
    return ranks


def premise_features(pool: SidePool) -> dict[str, NDArray[np.float64]]:
    """Each candidate's features for the linear fusion, each about 0 to 1: ``bm25`` over the
    query's best BM25, ``cosine`` to the query, ``claim`` the cosine of its best conclusion on
    this side, ``support`` its cluster's claim-route share P(pi^s|q) over the side's largest
    (0 where no similar claim lent it mass), ``length`` log(1 + words) / log(101), and
    ``argument`` the prior's probability when the pool has it."""
    import numpy as np

    n = len(pool.premises)
    support = pool.cluster_p * (pool.own > 0)
    top = float(support.max()) if n else 0.0
    features = {
        "bm25": pool.bm25 / pool.bm25_max if pool.bm25_max > 0 else np.zeros(n),
        "cosine": np.asarray(pool.cosine, np.float64),
        "claim": pool.claim_cos if pool.claim_cos is not None else np.zeros(n),
        "support": support / top if top > 0 else np.zeros(n),
        "length": np.log1p(np.maximum(pool.words, 0)) / np.log(101.0),
    }
    if pool.argument is not None:
        features["argument"] = 1.0 / (1.0 + np.exp(-pool.argument))
    return features


@dataclass(frozen=True)
class _Scored:
    """A pool fused: each candidate's score, each label's score, and what explains a label, or
    one candidate shown on its own (``explain(label, member)``: route or feature -> rank of the
    value and its contribution), asked only for what is shown."""

    fused: NDArray[np.float64]
    by_label: dict[int, float]
    explain: Callable[[int, int | None], dict[str, dict[str, float]]]


def _rrf_scored(pool: SidePool, fusion: Fusion, names: Any, member_of: Any) -> _Scored:
    """Premises ranked by each route and fused; clusters by the same fusion over cluster-level
    route scores: P(pi^s|q), and the best BM25 and cosine of any member."""
    import numpy as np

    from argkb.retrieve.fusion import ranks_by, reciprocal_rank_fusion

    weights = fusion.weights()
    via_claim = pool.own > 0
    fused = reciprocal_rank_fusion(premise_ranks(pool), weights, k=fusion.rrf_k)
    best_bm25 = np.zeros(len(names))
    np.maximum.at(best_bm25, member_of, pool.bm25)
    best_cos = np.full(len(names), -np.inf)
    np.maximum.at(best_cos, member_of, pool.cosine)
    p_of_cluster = np.zeros(len(names))
    np.maximum.at(p_of_cluster, member_of, pool.cluster_p * via_claim)
    found_bm25 = np.zeros(len(names), bool)
    np.logical_or.at(found_bm25, member_of, pool.found_bm25)
    cluster_ranks = {
        "claims": ranks_by(p_of_cluster, found=p_of_cluster > 0),
        "bm25": ranks_by(best_bm25, found=found_bm25),
        "cosine": ranks_by(best_cos),
    }
    if pool.argument is not None and "argument" in weights:
        best_argument = np.zeros(len(names))
        np.maximum.at(best_argument, member_of, pool.argument)
        cluster_ranks["argument"] = ranks_by(best_argument)
    cluster_fused = reciprocal_rank_fusion(cluster_ranks, weights, k=fusion.rrf_k)
    of_premise: dict[str, NDArray[np.int64]] = {}  # read on the first member explained

    def explain(label: int, member: int | None = None) -> dict[str, dict[str, float]]:
        if member is None:
            table, at = cluster_ranks, int(np.searchsorted(names, label))
        else:
            if not of_premise:
                of_premise.update(premise_ranks(pool))
            table, at = {r: of_premise[r] for r in cluster_ranks}, member
        return {
            route: {"rank": int(ranks[at]),
                    "contribution": float(weights[route] / (fusion.rrf_k + ranks[at])
                                          if ranks[at] > 0 else 0.0)}
            for route, ranks in table.items()
        }  # fmt: skip

    return _Scored(fused, dict(zip(names.tolist(), cluster_fused.tolist(), strict=True)), explain)


def _linear_scored(pool: SidePool, fusion: Fusion, names: Any, member_of: Any) -> _Scored:
    """Each premise scored by :func:`~argkb.retrieve.fusion.linear_fusion` of its features; a
    label scored by its best member, whose features explain it (rank: the member's rank among
    the side's candidates by that feature)."""
    import numpy as np

    from argkb.retrieve.fusion import linear_fusion, ranks_by

    weights = fusion.linear
    assert weights is not None
    features = premise_features(pool)
    fused = linear_fusion(features, weights)
    order = np.lexsort((np.arange(len(fused)), -fused))  # best first, ties by position
    _, first = np.unique(member_of[order], return_index=True)
    best = order[first]  # each label's best member, labels in the order of ``names``
    ranks: dict[str, NDArray[np.int64]] = {}  # by feature, read on the first explanation

    def explain(label: int, member: int | None = None) -> dict[str, dict[str, float]]:
        if not ranks:
            ranks.update({name: ranks_by(values) for name, values in features.items()
                          if weights.get(name, 0.0)})  # fmt: skip
        head = int(best[int(np.searchsorted(names, label))]) if member is None else member
        return {
            name: {"rank": int(ranks[name][head]), "value": float(features[name][head]),
                   "contribution": float(weights[name] * features[name][head])}
            for name in ranks
        }  # fmt: skip

    by_label = {int(label): float(fused[best[c]]) for c, label in enumerate(names.tolist())}
    return _Scored(fused, by_label, explain)


def fuse_pool(pool: SidePool, fusion: Fusion, k: int, representative: str = "best") -> list[Entry]:
    """At most ``k`` entries of one side, best first (see the module docstring). Pure NumPy.

    ``representative``: ``"longest"`` shows each cluster by its longest member (Dumani et al.
    2020), chosen before members are shown on their own to fill the list; ``"best"`` by its
    best-fused member. An entry's first member is its representative.

    With reciprocal rank fusion (``fusion.linear`` None), premises are ranked by each route and
    fused (their order within a cluster, and the order of members shown on their own to fill
    the list); clusters are ranked by the same fusion over cluster-level route scores (Dumani
    et al. rank clusters, not premises). With the linear fusion a premise's score is the
    weighted sum of its features and a cluster's the score of its best member.
    """
    import numpy as np

    from argkb.retrieve.fusion import group_by_cluster

    names, member_of = np.unique(pool.labels, return_inverse=True)
    scored = (_rrf_scored if fusion.linear is None else _linear_scored)(
        pool, fusion, names, member_of
    )
    fused, by_label = scored.fused, scored.by_label
    entries: list[Entry] = []
    priority = pool.words if representative == "longest" else None
    for group in group_by_cluster(fused, pool.labels, k, by_label, priority):
        head = group.representative
        # a member shown on its own to fill the list is explained by its own evidence
        promoted = len(entries) >= len(by_label)
        explain: dict[str, Any] = {
            "fused": float(fused[head]) if promoted else by_label[group.label],
            "routes": scored.explain(group.label, head if promoted else None),
            "p_cluster": float(pool.cluster_p[head]),
            "bm25": float(pool.bm25[head]),
            "cosine": float(pool.cosine[head]),
            "vector_hit": bool(pool.vector_hit[head]),
            "promoted": promoted,
        }
        score = by_label[group.label]
        if promoted:  # below every cluster, in the order of its own fused score
            score = _promoted_score(by_label, fused, head, linear=fusion.linear is not None)
        entries.append(Entry(float(score), list(group.members), group.label, explain))
    return entries


def _promoted_score(
    by_label: dict[int, float], fused: NDArray[np.float64], head: int, *, linear: bool
) -> float:
    """The score of a member shown on its own to fill the list: below every cluster, in the
    order of its own fused score (RRF scores are positive, a linear sum need not be)."""
    lowest = min(by_label.values())
    if linear:
        return lowest - 1.0 - (float(fused.max()) - float(fused[head]))
    return lowest * 0.5 * float(fused[head]) / max(float(fused.max()), 1e-12)
