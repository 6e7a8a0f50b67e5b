"""Placing new units into existing clusters (argkb.cluster.incremental), hand-computed cases."""

from __future__ import annotations

import numpy as np
import pytest

from argkb.cluster.hierarchy import agglomerative
from argkb.cluster.incremental import assign_to_clusters, linkage_distance


def _unit(*angles_deg: float) -> np.ndarray:
    """Unit vectors in the plane at the given angles (cosine distance 1 - cos(angle))."""
    radians = np.deg2rad(angles_deg)
    return np.stack([np.cos(radians), np.sin(radians)], axis=1)


def test_linkage_distances_by_hand() -> None:
    members = _unit(0.0, 60.0)
    x = _unit(30.0)[0]
    near = 1 - np.cos(np.deg2rad(30))
    assert linkage_distance(x, members, "complete") == pytest.approx(near)
    x = _unit(90.0)[0]
    assert linkage_distance(x, members, "complete") == pytest.approx(1.0)
    assert linkage_distance(x, members, "single") == pytest.approx(1 - np.cos(np.deg2rad(30)))
    assert linkage_distance(x, members, "average") == pytest.approx(
        (1.0 + 1 - np.cos(np.deg2rad(30))) / 2
    )


def test_complete_linkage_joins_only_within_the_cut_of_every_member() -> None:
    clusters = {0: _unit(0.0, 20.0), 1: _unit(90.0)}
    new = _unit(10.0, 45.0, 85.0)
    cut = 1 - np.cos(np.deg2rad(30))  # within 30 degrees
    chosen = assign_to_clusters(new, [[0], [0, 1], [1]], clusters, linkage="complete", cut=cut)
    # 10 deg: within 10 of both members; 45: 45 from 0 deg (too far) and 45 from 90; 85: 5 from 90
    assert chosen.tolist() == [0, -1, 1]


def test_placement_is_seen_by_later_units() -> None:
    """Two new units each within the cut of the old member but not of each other: complete
    linkage takes the closer one only, as a full run would."""
    clusters = {0: _unit(0.0)}
    new = _unit(20.0, -25.0)
    cut = 1 - np.cos(np.deg2rad(30))
    chosen = assign_to_clusters(new, [[0], [0]], clusters, linkage="complete", cut=cut)
    assert chosen.tolist() == [0, -1]
    whole = agglomerative(np.vstack([clusters[0], new]), linkage="complete", cut=cut)
    assert whole[0] == whole[1] != whole[2]


def test_average_linkage_picks_the_nearest_cluster_on_average() -> None:
    clusters = {0: _unit(0.0, 40.0), 1: _unit(50.0, 52.0)}
    new = _unit(35.0)
    cut = 1 - np.cos(np.deg2rad(40))
    chosen = assign_to_clusters(new, [[0, 1]], clusters, linkage="average", cut=cut)
    assert chosen.tolist() == [1]


def test_no_candidates_means_no_cluster() -> None:
    chosen = assign_to_clusters(_unit(0.0), [[]], {}, linkage="average", cut=0.5)
    assert chosen.tolist() == [-1]
