"""pf-icf cluster ranking (Dumani et al., ECIR 2020, Eq. 2-5), checked by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from argkb.retrieve.pfidf import cluster_scores, edge_terms


def test_hand_computed_example() -> None:
    """Two claims c0, c1 in one claim cluster (gamma 0), |Gamma| = 4 in the corpus.

    edges (premise cluster, claim, stance):  A->c0 pro, A->c1 pro, B->c0 pro, C->c1 con
    pf:  A pro in gamma0: 2 edges -> pf 2 for both A edges; B: 1; C (con): 1
    cf (corpus-wide, given): A pro 1 -> icf log 4; B pro 4 -> icf log 1 = 0 (floored to 1e-6);
    C con 2 -> icf log 2
    Z per (claim, stance): c0 pro: 2 log4 + 1e-6; c1 pro: 2 log4; c1 con: log2
    P(c|q) = 0.5 each.
    """
    pi = [0, 0, 1, 2]
    claim = [0, 1, 0, 1]
    gamma = [0, 0, 0, 0]
    pro = [True, True, True, False]
    cf_pro = [1, 1, 4, 0]
    cf_con = [0, 0, 0, 2]
    terms = edge_terms(pi, claim, gamma, pro, cf_pro, cf_con, 4, [0.5] * 4)
    np.testing.assert_allclose(terms.pf, [2, 2, 1, 1])
    np.testing.assert_allclose(terms.icf, [math.log(4), math.log(4), 1e-6, math.log(2)])
    z_c0 = 2 * math.log(4) + 1e-6
    expected = [2 * math.log(4) / z_c0, 1.0, 1e-6 / z_c0, 1.0]
    np.testing.assert_allclose(terms.p_premise_given_claim, expected)
    scores = cluster_scores(pi, pro, terms)
    assert list(scores.clusters) == [0, 1, 2]
    # A: 0.5 * (2log4/z_c0) + 0.5 * 1 ; B: 0.5 * 1e-6/z_c0 ; C only con
    np.testing.assert_allclose(
        scores.pro, [0.5 * expected[0] + 0.5, 0.5 * expected[2], 0.0], rtol=1e-12
    )
    np.testing.assert_allclose(scores.con, [0.0, 0.0, 0.5])
    np.testing.assert_allclose(scores.both, (scores.pro + scores.con) / 2)


def test_opposite_alignment_swaps_stances() -> None:
    """With P(q aligned c) = 0 a premise supporting c attacks q (Eq. 2)."""
    terms = edge_terms([0, 1], [0, 0], [0, 0], [True, False], [1, 1], [1, 1], 3, [1.0, 1.0])
    aligned = cluster_scores([0, 1], [True, False], terms, 1.0)
    flipped = cluster_scores([0, 1], [True, False], terms, 0.0)
    np.testing.assert_allclose(flipped.pro, aligned.con)
    np.testing.assert_allclose(flipped.con, aligned.pro)
    half = cluster_scores([0, 1], [True, False], terms, 0.5)
    np.testing.assert_allclose(half.pro, half.con)


def test_frequent_premise_outranks_rare_within_claim_cluster() -> None:
    """Same specificity: the premise cluster used more often for the claim cluster ranks higher."""
    pi = [0, 0, 0, 1]
    terms = edge_terms(pi, [0, 1, 2, 0], [0] * 4, [True] * 4, [1] * 4, [0] * 4, 10, [1 / 3] * 4)
    scores = cluster_scores(pi, [True] * 4, terms)
    assert scores.pro[0] > scores.pro[1] > 0


def test_claim_probabilities_sum_through() -> None:
    """P(p|c) is a distribution per claim and stance, so the total pro mass is sum P(c|q)."""
    rng = np.random.default_rng(3)
    m = 40
    pi = rng.integers(0, 8, m)
    claim = rng.integers(0, 5, m)
    pro = np.ones(m, bool)
    p_claim_of = rng.dirichlet(np.ones(5))
    terms = edge_terms(pi, claim, claim // 2, pro, rng.integers(1, 4, m), np.zeros(m), 20,
                       p_claim_of[claim])  # fmt: skip
    scores = cluster_scores(pi, pro, terms)
    present = np.unique(claim)
    assert scores.pro.sum() == pytest.approx(p_claim_of[present].sum())
