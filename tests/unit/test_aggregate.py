"""Premise aggregation into argument relevance (EACL 2017, Sec. 4.3): by hand, on the paper's
worked example, and against a naive loop (hypothesis)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argkb.eval.metrics import kendall_tau
from argkb.rank.aggregate import (
    METHODS,
    Method,
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


# -- the worked example of Wachsmuth, Stein & Ajjour, EACL 2017, Sec. 6 -------------------------
# Table 1, first conclusion ("Strawberries are the best choice for your breakfast meal!"): a1 has
# premises 1 and 2, a2 and a3 one premise each; benchmark ranks a1 = 1, a2 = 2, a3 = 3. Sec. 6:
# "both Minimum and Average underrate the relevance of a1, since premise 1 fails to counter the
# low PageRank score of premise 2 (resulting in tau = -0.82). Summing up scores ... increases tau
# to 0.82. In contrast, Maximum assigns the same rank to all three arguments." The premises of a2
# and a3 "show no structural difference in the graph" (Sec. 5), so they score alike; for Maximum to
# tie all three, premise 1 scores as they do, and premise 2 lower. Dyadic scores keep ties exact.
STRAWBERRY_SCORES = np.array([0.25, 0.125, 0.25, 0.25])  # premise 1, premise 2, a2's, a3's
STRAWBERRY_INDPTR = np.array([0, 2, 3, 4])  # a1 <- {0, 1}, a2 <- {2}, a3 <- {3}
STRAWBERRY_UNITS = np.array([0, 1, 2, 3])
STRAWBERRY_RANKS = np.array([1, 2, 3])


@pytest.mark.parametrize(("method", "paper_tau"), [("min", -0.82), ("avg", -0.82), ("sum", 0.82)])
def test_eacl_2017_worked_example(method: Method, paper_tau: float) -> None:
    relevance = aggregate_premises(STRAWBERRY_SCORES, STRAWBERRY_INDPTR, STRAWBERRY_UNITS, method)
    # rank 1 is the most relevant, so relevance is compared with the negated rank
    tau = kendall_tau(relevance, -STRAWBERRY_RANKS)
    assert round(tau, 2) == paper_tau
    # three arguments, one pair tied in relevance: tau-b = (C - D) / sqrt(3 * 2)
    assert tau == pytest.approx(math.copysign(2 / math.sqrt(6), paper_tau), rel=1e-12)


def test_eacl_2017_worked_example_maximum_ties_all_three() -> None:
    relevance = aggregate_premises(STRAWBERRY_SCORES, STRAWBERRY_INDPTR, STRAWBERRY_UNITS, "max")
    assert len(set(relevance.tolist())) == 1
    # tau-b is undefined for a constant ranking (the benchmark evaluation counts it as 0)
    assert math.isnan(kendall_tau(relevance, -STRAWBERRY_RANKS))
    # Sum puts a1 first; a2 and a3 tie and keep id order
    ranked = rank_arguments(
        STRAWBERRY_SCORES, [9, 9, 9], STRAWBERRY_INDPTR, STRAWBERRY_UNITS, "sum"
    )
    assert ranked[9].tolist() == [0, 1, 2]


# -- against a naive loop (hypothesis) ----------------------------------------------------------

BOUNDED = settings(max_examples=100, deadline=2000)
SCORE = st.floats(0.0, 1.0)  # PageRank scores


@st.composite
def premise_lists(draw: st.DrawFn) -> tuple[list[float], list[list[int]]]:
    """Unit scores and premise lists (possibly empty, repeats allowed: aggregated as given)."""
    scores = draw(st.lists(SCORE, min_size=1, max_size=12))
    unit = st.integers(0, len(scores) - 1)
    return scores, draw(st.lists(st.lists(unit, max_size=5), max_size=10))


def csr(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    indptr = np.cumsum([0, *(len(premises) for premises in lists)])
    units = np.array([u for premises in lists for u in premises], dtype=np.int64)
    return indptr, units


NAIVE: dict[str, Callable[[list[float]], float]] = {
    "min": min,
    "max": max,
    "sum": math.fsum,
    "avg": lambda values: math.fsum(values) / len(values),
}


@BOUNDED
@given(premise_lists(), st.sampled_from(METHODS), st.sampled_from([0.0, -1.0, math.nan]))
def test_aggregates_match_a_naive_loop(
    case: tuple[list[float], list[list[int]]], method: Method, empty: float
) -> None:
    scores, lists = case
    indptr, units = csr(lists)
    got = aggregate_premises(scores, indptr, units, method, empty=empty)
    expected = [
        NAIVE[method]([scores[u] for u in premises]) if premises else empty for premises in lists
    ]
    assert got.shape == (len(lists),)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(aggregate_all(scores, indptr, units, empty=empty)[method], got)


@BOUNDED
@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.sampled_from([0.0, 0.25, 0.5, 1.0, math.nan])),
        max_size=15,
    )
)
def test_order_by_relevance_matches_a_naive_sort(arguments: list[tuple[int, float]]) -> None:
    conclusions = [conclusion for conclusion, _ in arguments]
    relevance = [rel for _, rel in arguments]
    got = order_by_relevance(np.array(conclusions, dtype=np.int64), relevance)
    expected = {}
    for conclusion in sorted(set(conclusions)):
        ids = [i for i, c in enumerate(conclusions) if c == conclusion]
        # decreasing relevance, NaN last, ties by ascending id
        expected[conclusion] = sorted(
            ids, key=lambda i: (1, 0.0, i) if math.isnan(relevance[i]) else (0, -relevance[i], i)
        )
    assert {c: order.tolist() for c, order in got.items()} == expected
