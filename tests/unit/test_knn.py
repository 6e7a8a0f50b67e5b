"""Exact nearest neighbours (argkb.cluster.knn.exact_pairs) against a brute-force reference."""

from __future__ import annotations

import numpy as np
import pytest

from argkb.cluster import knn


def _vectors(n: int, dim: int = 16, seed: int = 3) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(n, dim)).astype(np.float32)


def _reference(vectors: np.ndarray, k: int, min_cos: float) -> dict[tuple[int, int], float]:
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    sims = unit @ unit.T
    pairs = {}
    for i, row in enumerate(sims):
        order = [j for j in np.argsort(-row, kind="stable") if j != i][:k]
        pairs.update({(i, int(j)): float(row[j]) for j in order if row[j] >= min_cos})
    return pairs


@pytest.mark.parametrize("block_floats", [1 << 25, 7 * 40])  # one block; blocks of 7 rows
def test_exact_pairs_are_the_nearest_above_the_cut(monkeypatch, block_floats) -> None:
    monkeypatch.setattr(knn, "_BLOCK_FLOATS", block_floats)
    vectors = _vectors(40)
    ids = np.arange(100, 140, dtype=np.int64)  # ids are not positions
    seen: list[int] = []
    a, b, cos = knn.exact_pairs(ids, vectors, k=5, min_cos=0.3, progress=seen.append)
    found = {(int(x) - 100, int(y) - 100): float(s) for x, y, s in zip(a, b, cos, strict=True)}
    want = _reference(vectors, 5, 0.3)
    assert found.keys() == want.keys()
    assert all(found[p] == pytest.approx(want[p], abs=1e-5) for p in want)
    assert len(want) < 40 * 5, "the cut must remove some of the k nearest in this fixture"
    assert sum(seen) == 40


def test_exact_pairs_with_k_above_the_units_and_tiny_inputs() -> None:
    vectors = _vectors(4)
    a, b, _ = knn.exact_pairs(np.arange(4, dtype=np.int64), vectors, k=30, min_cos=-1.0)
    everyone = [(i, j) for i in range(4) for j in range(4) if i != j]
    assert sorted(zip(a.tolist(), b.tolist(), strict=True)) == everyone
    for n in (0, 1):
        a, b, cos = knn.exact_pairs(np.arange(n, dtype=np.int64), _vectors(n), k=3, min_cos=0.0)
        assert len(a) == len(b) == len(cos) == 0


def test_auto_is_exact_up_to_the_limit_without_asking_the_server() -> None:
    # the driver is never touched at or below the limit (None would fail if it were)
    assert knn.choose(None, None, knn.EXACT_UNITS, "auto") == "exact"  # type: ignore[arg-type]
    assert knn.choose(None, None, 10, "index") == "index"  # type: ignore[arg-type]


def test_exact_pairs_against_a_base_skip_the_unit_itself() -> None:
    # SAME_AS: claims' nearest premises; unit 7 is both, and is not its own neighbour
    vectors = _vectors(12)
    claims = np.array([7, 2, 30], dtype=np.int64)
    premise_ids = np.array([9, 7, 5, 11, 3, 8, 4, 6, 10], dtype=np.int64)  # not sorted
    claim_vectors = vectors[[7 - 2, 0, 11]]
    base = (premise_ids, vectors[premise_ids - 2])
    a, b, cos = knn.exact_pairs(claims, claim_vectors, k=3, min_cos=-1.0, base=base)
    assert (7, 7) not in set(zip(a.tolist(), b.tolist(), strict=True))
    for claim, vector in zip(claims, claim_vectors, strict=True):
        others = [(float(vector @ v / np.linalg.norm(vector) / np.linalg.norm(v)), int(p))
                  for p, v in zip(*base, strict=True) if p != claim]  # fmt: skip
        want = {p for _, p in sorted(others, reverse=True)[:3]}
        assert set(b[a == claim].tolist()) == want
    assert np.all(cos <= 1.0 + 1e-6)


def test_exact_above_finds_every_base_unit_near_a_query() -> None:
    vectors = _vectors(30)
    base = (np.arange(100, 125, dtype=np.int64), vectors[:25])
    queries = vectors[25:]
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    want = {100 + j for j in range(25) if (unit[25:] @ unit[j] >= 0.4).any()}
    assert 0 < len(want) < 25
    assert knn.exact_above(queries, base, min_cos=0.4) == want
    assert knn.exact_above(queries[:0], base, min_cos=0.4) == set()
