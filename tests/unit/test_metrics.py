"""Unit tests for argkb.eval.metrics.

Expected values come from independent sources: the worked example of Dumani et al., ECIR 2020,
sec. 6.2 (nDCG = 0.92), the DCG example of the Wikipedia article "Discounted cumulative gain",
the clustering example of Manning, Raghavan & Schutze, IIR (2008), sec. 16.3 / Fig. 16.4,
hand computations written out in comments, and brute-force enumeration for Task A.
"""

from __future__ import annotations

import itertools
import math
import os
import random
import subprocess
import sys
from collections.abc import Hashable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import argkb
from argkb.eval.metrics import (
    Discount,
    MetricInputError,
    adjusted_rand_index,
    bcubed,
    dcg,
    first_occurrence_gains,
    ideal_cluster_gains,
    kendall_tau,
    modified_ndcg_at_k,
    ndcg_at_k,
    normalized_mutual_information,
    precision_at_k,
    task_a_ndcg_at_k,
    task_b_ndcg_at_k,
)

# -- Dumani et al., ECIR 2020, sec. 6.2, Fig. 2 ---------------------------------------------------
# Three ground-truth clusters: G1 highly relevant (2), G2 and G3 relevant (1). The system list below
# has the paper's gain vector 2, 1, 0, 0, 0, 0, 0, 1 (repeats of G1/G2 and one irrelevant premise).
PAPER_CLUSTER_RELEVANCE = {"G1": 2, "G2": 1, "G3": 1}
PAPER_PREMISE_CLUSTER = {
    "a1": "G1",
    "a2": "G1",
    "a3": "G1",
    "b1": "G2",
    "b2": "G2",
    "b3": "G2",
    "c1": "G3",
}
PAPER_RANKING = ["a1", "b1", "a2", "b2", "irrelevant", "a3", "b3", "c1"]


def test_paper_example_gain_vectors() -> None:
    gains = first_occurrence_gains(PAPER_RANKING, PAPER_PREMISE_CLUSTER, PAPER_CLUSTER_RELEVANCE)
    assert gains == [2, 1, 0, 0, 0, 0, 0, 1]
    assert ideal_cluster_gains(PAPER_CLUSTER_RELEVANCE) == [2, 1, 1]


def test_paper_example_dcg_values() -> None:
    assert dcg([2, 1, 0, 0, 0, 0, 0, 1], discount="log2(i)") == pytest.approx(10 / 3, rel=1e-12)
    assert dcg([2, 1, 1], discount="log2(i)") == pytest.approx(3.63, abs=5e-3)


@pytest.mark.parametrize("k", [8, 10])
def test_paper_example_task_b_ndcg(k: int) -> None:
    score = task_b_ndcg_at_k(PAPER_RANKING, PAPER_PREMISE_CLUSTER, PAPER_CLUSTER_RELEVANCE, k)
    assert round(score, 2) == 0.92
    assert score == pytest.approx((10 / 3) / (3 + 1 / math.log2(3)), rel=1e-12)


def test_task_b_cutoff() -> None:
    # @2: gains 2, 1 against ideal 2, 1 -> perfect.
    assert task_b_ndcg_at_k(
        PAPER_RANKING, PAPER_PREMISE_CLUSTER, PAPER_CLUSTER_RELEVANCE, 2
    ) == pytest.approx(1.0)
    # @3 with the paper's discount: (2 + 1 + 0) / (2 + 1 + 1/log2 3).
    assert task_b_ndcg_at_k(
        PAPER_RANKING, PAPER_PREMISE_CLUSTER, PAPER_CLUSTER_RELEVANCE, 3
    ) == pytest.approx(3 / (3 + 1 / math.log2(3)))


def test_modified_ndcg_uses_standard_discount_on_paper_example() -> None:
    # Fromm et al.'s released code: gain / log2(rank + 1).
    expected = (2 + 1 / math.log2(3) + 1 / math.log2(9)) / (2 + 1 / math.log2(3) + 1 / 2)
    score = modified_ndcg_at_k(PAPER_RANKING, PAPER_PREMISE_CLUSTER, PAPER_CLUSTER_RELEVANCE, 10)
    assert score == pytest.approx(expected, rel=1e-12)
    assert round(score, 2) == 0.94
    assert score == pytest.approx(
        task_b_ndcg_at_k(
            PAPER_RANKING,
            PAPER_PREMISE_CLUSTER,
            PAPER_CLUSTER_RELEVANCE,
            10,
            discount="log2(i+1)",
        )
    )


def test_task_b_edge_cases() -> None:
    # No relevant ground-truth cluster: the ideal DCG is 0 and the score is defined as 0.
    assert task_b_ndcg_at_k(["p"], {"p": "G"}, {"G": 0}, 5) == 0.0
    assert task_b_ndcg_at_k([], PAPER_PREMISE_CLUSTER, PAPER_CLUSTER_RELEVANCE, 5) == 0.0
    # Premise mapped to None counts as in no cluster.
    assert first_occurrence_gains(["p", "q"], {"p": None, "q": "G"}, {"G": 1}) == [0, 1]
    with pytest.raises(MetricInputError, match="no entry in cluster_relevance"):
        task_b_ndcg_at_k(["p"], {"p": "missing"}, {"G": 1}, 5)
    with pytest.raises(MetricInputError, match=">= 0"):
        task_b_ndcg_at_k(["p"], {"p": "G"}, {"G": -1}, 5)
    with pytest.raises(MetricInputError, match="positive integer"):
        task_b_ndcg_at_k(["p"], {"p": "G"}, {"G": 1}, 0)
    with pytest.raises(MetricInputError, match="unknown discount"):
        task_b_ndcg_at_k(["p"], {"p": "G"}, {"G": 1}, 1, discount="ln")  # type: ignore[arg-type]


# -- Standard DCG / nDCG / precision ------------------------------------------------------------


def test_ndcg_wikipedia_example() -> None:
    # Wikipedia, "Discounted cumulative gain": ranked grades 3, 2, 3, 0, 1, 2 give DCG6 = 6.861;
    # with two more judged documents (3 and 2) the ideal order 3, 3, 3, 2, 2, 2 gives
    # IDCG6 = 8.740 and nDCG6 = 0.785.
    ranked = [3, 2, 3, 0, 1, 2]
    assert dcg(ranked) == pytest.approx(6.861, abs=5e-4)
    assert ndcg_at_k(ranked, [*ranked, 3, 2], 6) == pytest.approx(0.785, abs=5e-4)


def test_ndcg_hand_computed_and_inputs() -> None:
    # @2: DCG = 0 + 1/log2(3); IDCG = 1 + 1/log2(3).
    assert ndcg_at_k([0, 1, 1], [1, 1, 0], 2) == pytest.approx(
        (1 / math.log2(3)) / (1 + 1 / math.log2(3))
    )
    assert ndcg_at_k(np.array([1.0, 0.0]), np.array([0.0, 1.0]), 5) == pytest.approx(1.0)
    assert ndcg_at_k([0, 0], [0, 0], 3) == 0.0
    assert dcg([1, 1, 1], 2) == pytest.approx(1 + 1 / math.log2(3))
    assert dcg([1, 1, 1], discount="log2(i)") == pytest.approx(2 + 1 / math.log2(3))
    assert dcg([]) == 0.0
    with pytest.raises(MetricInputError):
        ndcg_at_k([1], [1], 0)
    with pytest.raises(MetricInputError):
        dcg([1], True)


def test_precision_at_k() -> None:
    assert precision_at_k([2, 0, 1, 0, 0], 5) == pytest.approx(2 / 5)
    assert precision_at_k([2, 0, 1, 0, 0], 2) == pytest.approx(1 / 2)
    assert precision_at_k([True, False, True], 3) == pytest.approx(2 / 3)
    # Shorter than k: missing ranks count as non-relevant.
    assert precision_at_k([1], 3) == pytest.approx(1 / 3)
    assert precision_at_k(np.array([0.5, 0.0]), 1) == 1.0
    with pytest.raises(MetricInputError):
        precision_at_k([1], -1)


# -- Kendall tau --------------------------------------------------------------------------------


def test_kendall_tau_hand_computed() -> None:
    # One discordant pair (2,3) out of six: (5 - 1) / 6.
    assert kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(2 / 3)
    assert kendall_tau([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    # tau-b with ties: pairs (1,2) tied in x, (2,3) tied in y, the other four concordant:
    # 4 / sqrt((6 - 1) * (6 - 1)) = 0.8.
    assert kendall_tau([1, 1, 2, 3], [1, 2, 2, 3]) == pytest.approx(0.8)
    assert kendall_tau(np.array([0.1, 0.5, 0.3]), np.array([1, 3, 2])) == pytest.approx(1.0)


def test_kendall_tau_undefined_and_errors() -> None:
    assert math.isnan(kendall_tau([1], [1]))
    assert math.isnan(kendall_tau([], []))
    assert math.isnan(kendall_tau([1, 1, 1], [1, 2, 3]))
    assert math.isnan(kendall_tau([1, 2, math.nan], [1, 2, 3]))
    with pytest.raises(MetricInputError, match="equal lengths"):
        kendall_tau([1, 2], [1, 2, 3])


# -- Task A -------------------------------------------------------------------------------------


def brute_force_task_a(
    clusters: list[list[Hashable]],
    premise_cluster: dict[Hashable, Hashable],
    relevance: dict[Hashable, float],
    k: int,
    discount: Discount,
) -> tuple[float, float, float, int]:
    """Enumerate every result list, as sec. 6.2 of Dumani et al. describes, and aggregate."""
    choices = [list(dict.fromkeys(c)) for c in clusters]
    scores = [
        task_b_ndcg_at_k(result, premise_cluster, relevance, k, discount=discount)
        for result in itertools.product(*choices)
    ]
    return sum(scores) / len(scores), min(scores), max(scores), len(scores)


def test_task_a_paper_style_example_by_hand() -> None:
    # Clusters pi1 = {p1, p2}, pi2 = {p3, p4} as in sec. 6.2; p1, p3 in G1 (rel 2), p2 in G2
    # (rel 1), p4 in no cluster. Lists with the paper's discount (ranks 1 and 2 weigh 1),
    # IDCG@2 = 2 + 1 = 3:
    # (p1,p3): 2+0 = 2; (p1,p4): 2+0 = 2; (p2,p3): 1+2 = 3; (p2,p4): 1+0 = 1.
    # nDCG: 2/3, 2/3, 1, 1/3 -> average 2/3, minimum 1/3, maximum 1.
    scores = task_a_ndcg_at_k(
        [["p1", "p2"], ["p3", "p4"]], {"p1": "G1", "p2": "G2", "p3": "G1"}, {"G1": 2, "G2": 1}, 2
    )
    assert scores.average == pytest.approx(2 / 3)
    assert scores.minimum == pytest.approx(1 / 3)
    assert scores.maximum == pytest.approx(1.0)
    assert scores.n_lists == 4
    assert scores.minimum_is_exact


def test_task_a_minimum_needs_lookahead_by_hand() -> None:
    # pi1 = {a in G1, b in G2}, pi2 = {c in G2}; both relevance 1; IDCG@2 = 2.
    # Picking a gives 1 + 1 = 2; picking b makes c a repeat: 1 + 0 = 1.
    scores = task_a_ndcg_at_k(
        [["a", "b"], ["c"]], {"a": "G1", "b": "G2", "c": "G2"}, {"G1": 1, "G2": 1}, 2
    )
    assert (scores.average, scores.minimum, scores.maximum) == pytest.approx((0.75, 0.5, 1.0))


def test_task_a_singleton_clusters_equal_task_b() -> None:
    # The paper scores the BM25F baseline's plain list as singleton clusters (sec. 6.3).
    scores = task_a_ndcg_at_k(
        [[p] for p in PAPER_RANKING], PAPER_PREMISE_CLUSTER, PAPER_CLUSTER_RELEVANCE, 10
    )
    expected = task_b_ndcg_at_k(PAPER_RANKING, PAPER_PREMISE_CLUSTER, PAPER_CLUSTER_RELEVANCE, 10)
    assert scores.average == pytest.approx(expected)
    assert scores.minimum == pytest.approx(expected)
    assert scores.maximum == pytest.approx(expected)
    assert scores.n_lists == 1


def test_task_a_clusters_beyond_cutoff_only_multiply_the_count() -> None:
    clusters = [["a1", "b1"], ["c1"], ["a2", "b2", "x"]]
    full = task_a_ndcg_at_k(clusters, PAPER_PREMISE_CLUSTER, PAPER_CLUSTER_RELEVANCE, 2)
    cut = task_a_ndcg_at_k(clusters[:2], PAPER_PREMISE_CLUSTER, PAPER_CLUSTER_RELEVANCE, 2)
    assert full.n_lists == 6
    assert cut.n_lists == 2
    assert full[:3] == pytest.approx(cut[:3])


def test_task_a_duplicate_ids_within_a_cluster_count_once() -> None:
    scores = task_a_ndcg_at_k([["a1", "a1", "x"]], PAPER_PREMISE_CLUSTER, {"G1": 2}, 1)
    assert scores.n_lists == 2
    assert scores.average == pytest.approx(0.5)


def test_task_a_errors_and_degenerate_inputs() -> None:
    with pytest.raises(MetricInputError, match="empty"):
        task_a_ndcg_at_k([["a1"], []], PAPER_PREMISE_CLUSTER, PAPER_CLUSTER_RELEVANCE, 5)
    with pytest.raises(MetricInputError, match="no entry"):
        task_a_ndcg_at_k([["p"]], {"p": "G9"}, PAPER_CLUSTER_RELEVANCE, 5)
    assert task_a_ndcg_at_k([], PAPER_PREMISE_CLUSTER, PAPER_CLUSTER_RELEVANCE, 5)[:4] == (
        0.0,
        0.0,
        0.0,
        1,
    )
    assert task_a_ndcg_at_k([["a1"]], PAPER_PREMISE_CLUSTER, {"G1": 0}, 5)[:3] == (0.0, 0.0, 0.0)


def random_task_a_case(
    rng: random.Random,
) -> tuple[list[list[Hashable]], dict[Hashable, Hashable], dict[Hashable, float], int]:
    n_truth = rng.randint(1, 4)
    relevance: dict[Hashable, float] = {
        f"G{g}": rng.choice([0, 1, 1, 2, 3]) for g in range(n_truth)
    }
    premises = [f"p{i}" for i in range(rng.randint(2, 9))]
    premise_cluster: dict[Hashable, Hashable] = {
        p: rng.choice(list(relevance)) for p in premises if rng.random() < 0.8
    }
    clusters: list[list[Hashable]] = [
        rng.sample(premises, rng.randint(1, min(4, len(premises))))
        for _ in range(rng.randint(1, 5))
    ]
    return clusters, premise_cluster, relevance, rng.randint(1, 6)


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.parametrize("discount", ["log2(i)", "log2(i+1)"])
def test_task_a_matches_brute_force(seed: int, discount: Discount) -> None:
    clusters, premise_cluster, relevance, k = random_task_a_case(random.Random(seed))
    scores = task_a_ndcg_at_k(clusters, premise_cluster, relevance, k, discount=discount)
    average, minimum, maximum, n_lists = brute_force_task_a(
        clusters, premise_cluster, relevance, k, discount
    )
    assert scores.n_lists == n_lists
    assert scores.minimum_is_exact
    assert scores.average == pytest.approx(average, rel=1e-9, abs=1e-12)
    assert scores.minimum == pytest.approx(minimum, rel=1e-9, abs=1e-12)
    assert scores.maximum == pytest.approx(maximum, rel=1e-9, abs=1e-12)


def test_task_a_average_is_exact_in_rational_arithmetic() -> None:
    # With all ranks within the paper's undiscounted ranks 1-2, DCG is an integer per list, so the
    # brute-force mean is an exact fraction to compare with.
    clusters = [["a1", "a2", "b1", "x"], ["a3", "b2", "c1"]]
    lists = list(itertools.product(*clusters))
    dcgs = [
        sum(first_occurrence_gains(r, PAPER_PREMISE_CLUSTER, PAPER_CLUSTER_RELEVANCE))
        for r in lists
    ]
    expected = Fraction(int(sum(dcgs)), len(lists)) / 3  # IDCG@2 = 2 + 1
    scores = task_a_ndcg_at_k(clusters, PAPER_PREMISE_CLUSTER, PAPER_CLUSTER_RELEVANCE, 2)
    assert scores.average == pytest.approx(float(expected), rel=1e-15)


def test_task_a_large_clusters_are_not_enumerated() -> None:
    # 10 clusters of 1,000 premises: 10^30 lists, solved without enumeration.
    rng = random.Random(7)
    relevance: dict[Hashable, float] = {f"G{g}": rng.choice([1, 2]) for g in range(30)}
    premise_cluster: dict[Hashable, Hashable] = {
        f"p{i}": f"G{rng.randrange(30)}" for i in range(10_000)
    }
    clusters: list[list[Hashable]] = [
        [f"p{i}" for i in range(j * 1000, (j + 1) * 1000)] for j in range(10)
    ]
    scores = task_a_ndcg_at_k(clusters, premise_cluster, relevance, 10)
    assert scores.n_lists == 1000**10
    assert scores.minimum_is_exact
    assert 0.0 <= scores.minimum <= scores.average <= scores.maximum <= 1.0


def test_task_a_sampling_fallback_bounds_the_minimum() -> None:
    rng = random.Random(3)
    relevance: dict[Hashable, float] = {f"G{g}": rng.choice([1, 2, 3]) for g in range(5)}
    premise_cluster: dict[Hashable, Hashable] = {f"p{i}": f"G{i % 5}" for i in range(20)}
    clusters: list[list[Hashable]] = [rng.sample(list(premise_cluster), 3) for _ in range(5)]
    exact = task_a_ndcg_at_k(clusters, premise_cluster, relevance, 5)
    sampled = task_a_ndcg_at_k(clusters, premise_cluster, relevance, 5, max_states=1, seed=1)
    _, brute_min, _, _ = brute_force_task_a(clusters, premise_cluster, relevance, 5, "log2(i)")
    assert exact.minimum_is_exact
    assert exact.minimum == pytest.approx(brute_min)
    assert not sampled.minimum_is_exact
    assert sampled.minimum >= exact.minimum - 1e-12
    assert sampled.average == exact.average
    assert sampled.maximum == exact.maximum
    # The sampled value is achieved by some result list.
    achievable = {
        round(task_b_ndcg_at_k(r, premise_cluster, relevance, 5), 12)
        for r in itertools.product(*clusters)
    }
    assert round(sampled.minimum, 12) in achievable


# -- Clustering agreement -----------------------------------------------------------------------

# Manning, Raghavan & Schutze, IIR (2008), Fig. 16.4: three clusters of 17 items from classes
# x (8), o (5), d (4). The book gives NMI = 0.36 and the pair counts TP = 20, FP = 20, FN = 24,
# TN = 72 (RI = 0.68).
IIR_TRUE = ["x"] * 5 + ["o"] + ["x"] + ["o"] * 4 + ["d"] + ["x"] * 2 + ["d"] * 3
IIR_PRED = [1] * 6 + [2] * 6 + [3] * 5


def test_iir_textbook_example() -> None:
    assert round(normalized_mutual_information(IIR_TRUE, IIR_PRED), 2) == 0.36
    # ARI from the pair counts: sum C(n_ij,2) = TP = 20, sum C(|cluster|,2) = TP+FP = 40,
    # sum C(|class|,2) = TP+FN = 44, N = 136: E = 40*44/136 = 220/17, max = 42,
    # ARI = (20 - 220/17) / (42 - 220/17) = 120/494 = 60/247.
    assert adjusted_rand_index(IIR_TRUE, IIR_PRED) == pytest.approx(60 / 247, rel=1e-12)
    # B-cubed by hand: precision = (26/6 + 18/6 + 13/5) / 17 = 149/255 (sum n_ij^2 / |cluster|),
    # recall = (30/8 + 17/5 + 10/4) / 17 = 193/340 (sum n_ij^2 / |class|).
    scores = bcubed(IIR_TRUE, IIR_PRED)
    p, r = 149 / 255, 193 / 340
    assert scores.precision == pytest.approx(p, rel=1e-12)
    assert scores.recall == pytest.approx(r, rel=1e-12)
    assert scores.f1 == pytest.approx(2 * p * r / (p + r), rel=1e-12)


def test_ari_hand_computed() -> None:
    # true [0,0,1,2], pred [0,0,1,1] (the scikit-learn user-guide example, 0.57): cells 2,1,1 ->
    # 1 pair; rows 2,1,1 -> 1; columns 2,2 -> 2; N = 6; E = 2/6; max = 3/2;
    # ARI = (1 - 1/3) / (3/2 - 1/3) = 4/7.
    assert adjusted_rand_index([0, 0, 1, 2], [0, 0, 1, 1]) == pytest.approx(4 / 7)
    # Crossed halves: 0 joint pairs, rows 2, columns 2, E = 2/3, max = 2 -> (0-2/3)/(4/3) = -1/2.
    assert adjusted_rand_index([0, 0, 1, 1], [0, 1, 0, 1]) == pytest.approx(-0.5)
    assert adjusted_rand_index(["a", "a", "b"], [5, 5, 7]) == 1.0
    # Degenerate denominators: both one cluster, both all-singletons, a single item.
    assert adjusted_rand_index([1, 1, 1], [2, 2, 2]) == 1.0
    assert adjusted_rand_index([1, 2, 3], [3, 1, 2]) == 1.0
    assert adjusted_rand_index([1], [1]) == 1.0
    # One cluster vs. all singletons: every pair disagrees; the index is 0 (E = 0, max = 3/2).
    assert adjusted_rand_index([1, 1, 1], [1, 2, 3]) == 0.0


def test_nmi_hand_computed() -> None:
    # true [0,0,1,1]: H = ln 2; pred [0,0,1,2]: H = 1.5 ln 2; joint = H(pred), so I = ln 2;
    # NMI = ln 2 / ((ln 2 + 1.5 ln 2) / 2) = 0.8.
    assert normalized_mutual_information([0, 0, 1, 1], [0, 0, 1, 2]) == pytest.approx(0.8)
    assert normalized_mutual_information([0, 0, 1, 1], [0, 1, 0, 1]) == pytest.approx(0.0)
    assert normalized_mutual_information([0, 0, 1, 1], [7, 7, 7, 7]) == 0.0
    assert normalized_mutual_information([3, 3], [4, 4]) == 1.0
    assert normalized_mutual_information([1, 2, 3], ["c", "a", "b"]) == pytest.approx(1.0)


def test_bcubed_hand_computed() -> None:
    # true [0,0,1,1], pred [0,0,0,1]. Per item (precision, recall): 1: (2/3, 1), 2: (2/3, 1),
    # 3: (1/3, 1/2), 4: (1, 1/2) -> precision 2/3, recall 3/4, F1 = 12/17.
    scores = bcubed([0, 0, 1, 1], [0, 0, 0, 1])
    assert scores.precision == pytest.approx(2 / 3)
    assert scores.recall == pytest.approx(3 / 4)
    assert scores.f1 == pytest.approx(12 / 17)
    swapped = bcubed([0, 0, 0, 1], [0, 0, 1, 1])
    assert (swapped.precision, swapped.recall) == pytest.approx((3 / 4, 2 / 3))
    assert tuple(bcubed(["u", "u", "v"], [1, 1, 2])) == pytest.approx((1.0, 1.0, 1.0))


@pytest.mark.parametrize("seed", range(10))
def test_clustering_scores_symmetry_and_label_permutation(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 40)
    a = [rng.randrange(4) for _ in range(n)]
    b = [rng.randrange(5) for _ in range(n)]
    renamed = {label: f"c{(label * 7 + 3) % 11}" for label in set(b)}
    b_renamed = [renamed[label] for label in b]
    assert adjusted_rand_index(a, b) == pytest.approx(adjusted_rand_index(b, a), abs=1e-12)
    assert normalized_mutual_information(a, b) == pytest.approx(
        normalized_mutual_information(b, a), abs=1e-12
    )
    assert adjusted_rand_index(a, b_renamed) == pytest.approx(adjusted_rand_index(a, b))
    assert normalized_mutual_information(a, b_renamed) == pytest.approx(
        normalized_mutual_information(a, b)
    )
    assert tuple(bcubed(a, b_renamed)) == pytest.approx(tuple(bcubed(a, b)))
    assert adjusted_rand_index(np.array(a), np.array(b)) == pytest.approx(adjusted_rand_index(a, b))
    assert 0.0 <= normalized_mutual_information(a, b) <= 1.0 + 1e-12


def test_clustering_input_errors() -> None:
    with pytest.raises(MetricInputError, match="differ in length"):
        adjusted_rand_index([1, 2], [1])
    with pytest.raises(MetricInputError, match="empty"):
        normalized_mutual_information([], [])
    with pytest.raises(MetricInputError):
        bcubed([1], [1, 2])


# -- Import cost --------------------------------------------------------------------------------


def test_import_does_not_load_numpy_or_scipy() -> None:
    root = str(Path(argkb.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    code = (
        "import sys, argkb.eval.metrics\n"
        "loaded = [m for m in ('numpy', 'scipy') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
