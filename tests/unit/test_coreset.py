"""Biased coreset (Fromm et al., ECIR 2021, Algorithm 1), checked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from argkb.retrieve.coreset import assign_to_nearest, biased_coreset

# three candidates: 0 and 1 are near-duplicates, 2 is different
SIM = np.array([[1.0, 0.95, 0.1], [0.95, 1.0, 0.2], [0.1, 0.2, 1.0]])
REL = np.array([0.9, 0.85, 0.6])


def test_relevance_only_ranks_by_relevance() -> None:
    assert biased_coreset(REL, SIM, 3, alpha=1.0).order.tolist() == [0, 1, 2]


def test_diversity_skips_the_duplicate() -> None:
    # second pick: 1 -> 0.5*0.85 - 0.5*0.95 = -0.05 ; 2 -> 0.5*0.6 - 0.5*0.1 = 0.25
    picked = biased_coreset(REL, SIM, 2, alpha=0.5)
    assert picked.order.tolist() == [0, 2]
    assert picked.gains.tolist() == pytest.approx([0.45, 0.25])


def test_alpha_zero_is_coverage_after_first_pick() -> None:
    # first pick by relevance is undefined at alpha 0 (all zero): lowest index; then the
    # candidate least similar to it
    assert biased_coreset(REL, SIM, 2, alpha=0.0).order.tolist() == [0, 2]


def test_k_larger_than_candidates_and_bad_alpha() -> None:
    assert len(biased_coreset(REL, SIM, 10).order) == 3
    with pytest.raises(ValueError):
        biased_coreset(REL, SIM, 2, alpha=1.5)


def test_assign_to_nearest_forms_clusters() -> None:
    owner = assign_to_nearest(SIM, [0, 2])
    assert owner.tolist() == [0, 0, 1]
