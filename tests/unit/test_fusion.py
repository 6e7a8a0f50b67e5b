"""Reciprocal rank fusion and grouping by premise cluster (pure functions)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argkb.retrieve.fusion import group_by_cluster, ranks_by, reciprocal_rank_fusion


def test_ranks_by_descending_with_tie_breaks_and_missing() -> None:
    ranks = ranks_by([3.0, 1.0, 3.0, 2.0], [0.0, 0.0, 1.0, 0.0], found=[True, True, True, False])
    # index 2 beats index 0 on the second key; index 3 was not found
    assert ranks.tolist() == [2, 3, 1, 0]


def test_ranks_by_ties_values_that_differ_by_summation_order_only() -> None:
    # 0.3 + 0.2 + 0.1 == 0.6 and 0.1 + 0.2 + 0.3 == 0.6000000000000001 in floating point
    values = [0.3 + 0.2 + 0.1, 0.1 + 0.2 + 0.3, 0.5]
    assert values[1] > values[0]
    assert ranks_by(values).tolist() == [1, 2, 3]  # a tie: broken by index, not by noise
    assert ranks_by(values, [0.0, 1.0, 0.0]).tolist() == [2, 1, 3]  # or by the next key


def test_rrf_matches_hand_computation() -> None:
    ranks = {"a": [1, 2, 0], "b": [0, 1, 2]}
    fused = reciprocal_rank_fusion(ranks, {"a": 1.0, "b": 2.0}, k=10)
    assert fused == pytest.approx([1 / 11, 1 / 12 + 2 / 11, 2 / 12])


def test_rrf_ignores_unweighted_routes() -> None:
    fused = reciprocal_rank_fusion({"a": [1, 2], "b": [2, 1]}, {"a": 1.0}, k=0)
    assert fused.tolist() == [1.0, 0.5]


def test_group_by_cluster_keeps_best_member_as_representative() -> None:
    groups = group_by_cluster([0.1, 0.9, 0.5, 0.8], [7, 7, 3, 3], k=5)
    # two clusters, but four candidates: the list is filled to min(k, 4) = 4 entries
    assert [g.representative for g in groups] == [1, 3, 2, 0]
    assert [g.members for g in groups] == [(1,), (3,), (2,), (0,)]


def test_group_by_cluster_stops_at_k_clusters() -> None:
    groups = group_by_cluster([0.1, 0.9, 0.5, 0.8, 0.2], [7, 7, 3, 3, 1], k=2)
    assert [(g.representative, g.members) for g in groups] == [(1, (1, 0)), (3, (3, 2))]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 1), st.integers(0, 5)), min_size=0, max_size=30),
    st.integers(0, 12),
)
def test_group_by_cluster_length_and_partition(rows: list[tuple[float, int]], k: int) -> None:
    scores = [s for s, _ in rows]
    labels = [c for _, c in rows]
    groups = group_by_cluster(scores, labels, k)
    assert len(groups) == min(k, len(rows))
    shown = [i for g in groups for i in g.members]
    assert len(shown) == len(set(shown))  # no candidate twice
    assert all(labels[i] == g.label for g in groups for i in g.members)
    clusters = len(set(labels))
    if k >= clusters and k > 0:  # every candidate is shown somewhere
        assert sorted(shown) == list(range(len(rows)))
    heads = [g.representative for g in groups][: min(k, clusters)]
    assert len({labels[i] for i in heads}) == len(heads)  # distinct clusters come first
    assert all(np.isfinite(scores[i]) for i in heads)


def test_head_priority_picks_the_representative_before_filling() -> None:
    # cluster 7: candidates 0 (score .9, short) and 1 (score .5, long); cluster 3: candidate 2
    ranked = {7: 1.0, 3: 0.5}
    groups = group_by_cluster([0.9, 0.5, 0.7], [7, 7, 3], 3, ranked, head_priority=[5, 40, 10])
    # the long member represents cluster 7; the short one fills the list after every cluster
    assert [(g.representative, g.members) for g in groups] == [(1, (1,)), (2, (2,)), (0, (0,))]
    groups = group_by_cluster([0.9, 0.5, 0.7], [7, 7, 3], 2, ranked, head_priority=[5, 40, 10])
    assert [(g.representative, g.members) for g in groups] == [(1, (1, 0)), (2, (2,))]
    # without a priority, the best-scored member represents its cluster
    groups = group_by_cluster([0.9, 0.5, 0.7], [7, 7, 3], 2, ranked)
    assert [(g.representative, g.members) for g in groups] == [(0, (0, 1)), (2, (2,))]
