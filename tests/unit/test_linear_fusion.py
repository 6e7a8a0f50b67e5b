"""The hybrid's linear fusion: each premise's features on a 0-to-1 scale, their weighted sum, and
clusters ranked by their best member (argkb.retrieve.fusion.linear_fusion,
argkb.query.rankers.hybrid_fusion.premise_features and fuse_pool)."""

from __future__ import annotations

import numpy as np
import pytest

from argkb.query.rankers.hybrid_fusion import Fusion, SidePool, fuse_pool, premise_features
from argkb.query.settings import QuerySettings
from argkb.retrieve.fusion import linear_fusion


def _pool(**overrides: object) -> SidePool:
    """Four candidates: 0 and 1 in premise cluster 0, 2 and 3 on their own."""
    values: dict[str, object] = {
        "premises": [10, 11, 12, 13],
        "labels": np.asarray([0, 0, 1, 2]),
        "cluster_p": np.asarray([0.6, 0.6, 0.2, 0.0]),
        "own": np.asarray([0.3, 0.3, 0.2, 0.0]),
        "bm25": np.asarray([4.0, 2.0, 8.0, 0.0]),
        "found_bm25": np.asarray([True, True, True, False]),
        "cosine": np.asarray([0.5, 0.4, 0.3, 0.6]),
        "vector_hit": np.ones(4, bool),
        "words": np.asarray([10, 100, 30, 5]),
        "claim_cos": np.asarray([0.9, 0.9, 0.2, 0.0]),
        "bm25_max": 8.0,
    }
    values.update(overrides)
    return SidePool(**values)  # type: ignore[arg-type]


def _linear(**weights: float) -> Fusion:
    return Fusion(0.0, 0.0, 0.0, 10.0, 0.0, weights)


def test_linear_fusion_is_the_weighted_sum_and_a_missing_weight_is_zero() -> None:
    features = {"a": [1.0, 0.0, 0.5], "b": [0.0, 2.0, 1.0]}
    assert np.allclose(linear_fusion(features, {"a": 2.0, "b": 0.5}), [2.0, 1.0, 1.5])
    assert np.allclose(linear_fusion(features, {"a": 1.0}), [1.0, 0.0, 0.5])
    with pytest.raises(ValueError):
        linear_fusion({}, {"a": 1.0})


def test_features_are_scaled_by_the_query_and_the_side() -> None:
    f = premise_features(_pool())
    assert np.allclose(f["bm25"], [0.5, 0.25, 1.0, 0.0])  # over the query's best BM25
    assert np.allclose(f["support"], [1.0, 1.0, 0.2 / 0.6, 0.0])  # over the side's largest
    assert np.allclose(f["claim"], [0.9, 0.9, 0.2, 0.0])
    assert np.isclose(f["length"][1], 1.0)  # 100 words
    assert "argument" not in f  # the pool has no prior
    # a premise no claim lent mass to has no support, whatever its cluster's P(pi|q)
    assert premise_features(_pool(own=np.zeros(4)))["support"].tolist() == [0, 0, 0, 0]
    # nothing found by BM25: the feature is 0, not a division by zero
    assert premise_features(_pool(bm25_max=0.0))["bm25"].tolist() == [0, 0, 0, 0]


def test_bm25_alone_orders_clusters_by_their_best_member() -> None:
    entries = fuse_pool(_pool(), _linear(bm25=1.0), k=3, representative="best")
    assert [e.members[0] for e in entries] == [2, 0, 3]
    assert entries[1].members == [0, 1]  # the cluster keeps its other member
    assert entries[0].score == pytest.approx(1.0)
    route = entries[1].explain["routes"]["bm25"]
    assert route["value"] == pytest.approx(0.5) and route["contribution"] == pytest.approx(0.5)
    assert route["rank"] == 2  # candidate 0 is second by BM25 among the side's candidates


def test_the_claim_feature_lifts_premises_of_a_matching_conclusion() -> None:
    # bm25 + claim: cluster 0 scores .5 + .9 = 1.4, candidate 2 scores 1 + .2 = 1.2
    entries = fuse_pool(_pool(), _linear(bm25=1.0, claim=1.0), k=3, representative="best")
    assert [e.members[0] for e in entries] == [0, 2, 3]
    assert entries[0].score == pytest.approx(1.4)
    assert set(entries[0].explain["routes"]) == {"bm25", "claim"}  # only weighted features


def test_longest_representative_shows_the_longest_member_at_the_best_members_score() -> None:
    entries = fuse_pool(_pool(), _linear(bm25=1.0, claim=1.0), k=3, representative="longest")
    assert entries[0].members[0] == 1  # 100 words against 10
    assert entries[0].score == pytest.approx(1.4)  # the cluster's score is its best member's


def test_members_shown_on_their_own_rank_below_every_cluster() -> None:
    entries = fuse_pool(_pool(), _linear(bm25=1.0), k=4, representative="best")
    assert [e.members[0] for e in entries] == [2, 0, 3, 1]
    assert entries[3].explain["promoted"] and not entries[2].explain["promoted"]
    assert entries[3].score < entries[2].score
    # even when every linear score is negative
    negative = fuse_pool(_pool(), _linear(cosine=-1.0), k=4, representative="best")
    assert negative[3].explain["promoted"] and negative[3].score < negative[2].score


def test_a_member_shown_on_its_own_is_explained_by_its_own_evidence() -> None:
    # member 1 (BM25 2.0) is shown on its own; its cluster's best member 0 has BM25 4.0
    entries = fuse_pool(_pool(), _linear(bm25=1.0), k=4, representative="best")
    promoted = entries[3]
    assert promoted.members == [1] and promoted.explain["promoted"]
    assert promoted.explain["fused"] == pytest.approx(2.0 / 8.0)
    assert promoted.explain["routes"]["bm25"]["value"] == pytest.approx(2.0 / 8.0)
    cluster = next(e for e in entries if e.members[0] == 0)
    assert cluster.explain["routes"]["bm25"]["value"] == pytest.approx(4.0 / 8.0)
    # and with reciprocal rank fusion: the member's own ranks (BM25: third of four)
    rrf = fuse_pool(_pool(), Fusion(0.0, 1.0, 0.0, 10.0, 0.0), k=4, representative="best")
    shown_alone = next(e for e in rrf if e.explain["promoted"])
    assert shown_alone.members == [1]
    assert shown_alone.explain["routes"]["bm25"]["rank"] == 3


def test_settings_choose_the_fusion() -> None:
    assert Fusion.of(QuerySettings(fusion="rrf")).linear is None
    linear = Fusion.of(QuerySettings(fusion="linear", linear_bm25=2.0, linear_length=0.5))
    assert linear.linear is not None
    assert linear.linear["bm25"] == 2.0 and linear.linear["length"] == 0.5
