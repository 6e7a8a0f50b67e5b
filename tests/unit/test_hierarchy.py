"""Clustering per component of the threshold graph equals clustering the whole set."""

from __future__ import annotations

import numpy as np
import pytest

from argkb.cluster.hierarchy import Linkage, agglomerative, cluster_graph


def _same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    pairs_a = {(x, y) for x, y in zip(a, b, strict=True)}
    return len(pairs_a) == len(set(a)) == len(set(b))


def _blobs(seed: int, n: int = 120, dims: int = 16) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(12, dims))
    x = centres[rng.integers(0, 12, n)] + 0.35 * rng.normal(size=(n, dims))
    return x / np.linalg.norm(x, axis=1, keepdims=True)


@pytest.mark.parametrize("linkage", ["average", "complete"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_component_clustering_is_exact_with_all_pairs(linkage: Linkage, seed: int) -> None:
    x = _blobs(seed)
    cut = 0.3
    whole = agglomerative(x, linkage=linkage, cut=cut)
    sim = x @ x.T
    i, j = np.triu_indices(len(x), k=1)
    labels, stats = cluster_graph(x, i, j, sim[i, j], linkage=linkage, cut=cut)
    assert _same_partition(whole, labels)
    assert stats.clusters == len(set(whole)) and stats.split_components == 0


def test_identical_vectors_cluster_and_far_ones_do_not() -> None:
    x = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    labels = agglomerative(x, linkage="complete", cut=0.1)
    assert labels[0] == labels[1] != labels[2]


def test_oversized_component_is_split() -> None:
    x = _blobs(5, n=60)
    sim = x @ x.T
    i, j = np.triu_indices(len(x), k=1)
    labels, stats = cluster_graph(x, i, j, sim[i, j], linkage="average", cut=1.5, max_block=10)
    assert stats.split_components >= 1
    assert np.bincount(labels).max() <= 10
