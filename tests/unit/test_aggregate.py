"""Premise aggregation into argument relevance (EACL 2017, Sec. 4.3), by hand."""

from __future__ import annotations

import numpy as np
import pytest

from argkb.rank.aggregate import (
    aggregate_all,
    aggregate_premises,
    order_by_relevance,
    rank_arguments,
)
from argkb.rank.pagerank import GraphInputError, argument_pagerank

# Unit scores and four arguments: a0 <- {0, 1, 2}, a1 <- {} (no premise), a2 <- {3}, a3 <- {1, 3}.
# Dyadic scores, so equal sums are exactly equal in floating point.
SCORES = np.array([0.125, 0.25, 0.375, 0.5])
INDPTR = np.array([0, 3, 3, 4, 6])
UNITS = np.array([0, 1, 2, 3, 1, 3])
CONCLUSIONS = np.array([5, 5, 7, 5])


@pytest.mark.parametrize(
    ("method", "expected"),
    [
        # a0: min(0.125, 0.25, 0.375); a1: empty -> 0; a2: 0.5; a3: min(0.25, 0.5)
        ("min", [0.125, 0.0, 0.5, 0.25]),
        # a0: 0.75/3; a3: 0.75/2
        ("avg", [0.25, 0.0, 0.5, 0.375]),
        ("max", [0.375, 0.0, 0.5, 0.5]),
        # a0: 0.125 + 0.25 + 0.375; a3: 0.25 + 0.5
        ("sum", [0.75, 0.0, 0.5, 0.75]),
    ],
)
def test_aggregates_by_hand(method: str, expected: list[float]) -> None:
    got = aggregate_premises(SCORES, INDPTR, UNITS, method)  # type: ignore[arg-type]
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-15)


def test_empty_premise_sets_at_start_middle_and_end() -> None:
    # a0 <- {}, a1 <- {2, 0}, a2 <- {}, a3 <- {3}, a4 <- {}: an empty list must not pick up the
    # next list's first score, and a trailing empty list must not index past the end.
    indptr = [0, 0, 2, 2, 3, 3]
    units = [2, 0, 3]
    got = aggregate_all(SCORES, indptr, units, empty=np.nan)
    np.testing.assert_allclose(got["min"], [np.nan, 0.125, np.nan, 0.5, np.nan], atol=1e-15)
    np.testing.assert_allclose(got["avg"], [np.nan, 0.25, np.nan, 0.5, np.nan], atol=1e-15)
    np.testing.assert_allclose(got["max"], [np.nan, 0.375, np.nan, 0.5, np.nan], atol=1e-15)
    np.testing.assert_allclose(got["sum"], [np.nan, 0.5, np.nan, 0.5, np.nan], atol=1e-15)


def test_all_premise_sets_empty() -> None:
    got = aggregate_premises(SCORES, [0, 0, 0], [], "min", empty=-1.0)
    np.testing.assert_array_equal(got, [-1.0, -1.0])


def test_ranking_per_conclusion_with_deterministic_ties() -> None:
    # sum: conclusion 5 has a0 = 0.75, a1 = 0, a3 = 0.75 -> tie a0/a3 broken by id: [0, 3, 1].
    by_sum = rank_arguments(SCORES, CONCLUSIONS, INDPTR, UNITS, "sum")
    assert list(by_sum) == [5, 7]
    assert by_sum[5].tolist() == [0, 3, 1]
    assert by_sum[7].tolist() == [2]
    # min: a3 = 0.25 > a0 = 0.125 > a1 = 0.
    assert rank_arguments(SCORES, CONCLUSIONS, INDPTR, UNITS, "min")[5].tolist() == [3, 0, 1]
    # max: a3 = 0.5 > a0 = 0.375 > a1 = 0.
    assert rank_arguments(SCORES, CONCLUSIONS, INDPTR, UNITS, "max")[5].tolist() == [3, 0, 1]


def test_ties_broken_by_ascending_argument_id() -> None:
    relevance = np.array([0.5, 0.5, 0.9, 0.5, 0.1, 0.9])
    conclusions = np.array([1, 1, 0, 1, 0, 1])
    ranked = order_by_relevance(conclusions, relevance)
    assert ranked[1].tolist() == [5, 0, 1, 3]
    assert ranked[0].tolist() == [2, 4]
    # Renumber the arguments: new id j is old argument perm[j]. Conclusion 1 now has new ids
    # 0 (0.5), 1 (0.9), 2 (0.5), 3 (0.5) -> [1, 0, 2, 3], i.e. old ids [5, 3, 1, 0].
    perm = np.array([3, 5, 1, 0, 4, 2])
    renumbered = order_by_relevance(conclusions[perm], relevance[perm])
    assert perm[renumbered[1]].tolist() == [5, 3, 1, 0]


def test_nan_relevance_ranks_last() -> None:
    ranked = order_by_relevance([0, 0, 0], [np.nan, 0.2, 0.7])
    assert ranked[0].tolist() == [2, 1, 0]


def test_aggregates_on_pagerank_of_shared_conclusion() -> None:
    # From test_pagerank: 0 <- {1, 2} (a0) and 0 <- {3} (a1), alpha 0.5, literal scores
    # (0.125, 0.140625, 0.140625, 0.15625). min/avg/max prefer a1 (0.15625 > 0.140625);
    # sum prefers a0 (0.28125 > 0.15625), the aggregate the paper found best (Table 2).
    indptr, units = [0, 2, 3], [1, 2, 3]
    scores = argument_pagerank(4, [0, 0], indptr, units, alpha=0.5, dangling="drop").scores
    relevance = aggregate_all(scores, indptr, units)
    np.testing.assert_allclose(relevance["sum"], [0.28125, 0.15625], atol=1e-12)
    np.testing.assert_allclose(relevance["avg"], [0.140625, 0.15625], atol=1e-12)
    for method in ("min", "avg", "max"):
        assert rank_arguments(scores, [0, 0], indptr, units, method)[0].tolist() == [1, 0]
    assert rank_arguments(scores, [0, 0], indptr, units)[0].tolist() == [0, 1]


def test_bad_input_raises() -> None:
    with pytest.raises(GraphInputError):
        aggregate_premises(SCORES, INDPTR, UNITS, "median")  # type: ignore[arg-type]
    with pytest.raises(GraphInputError):
        aggregate_premises(SCORES, [0, 3, 2], [0, 1, 2], "min")
    with pytest.raises(GraphInputError):
        aggregate_premises(SCORES, [0, 1], [4], "min")
    with pytest.raises(GraphInputError):
        order_by_relevance([0, 1], [0.5])
