"""Paired comparison of two runs (hand-computed cases)."""

from __future__ import annotations

import pytest

from argkb.eval.compare import paired

PER_QUERY = {
    "a": {"q1": {"m": 0.5}, "q2": {"m": 0.9}, "q3": {"m": 0.2}, "q4": {"m": 0.4}},
    "b": {"q1": {"m": 0.3}, "q2": {"m": 0.9}, "q3": {"m": 0.6}, "q5": {"m": 1.0}},
}


def test_wins_ties_losses_and_mean_over_shared_queries() -> None:
    p = paired("a", "b", PER_QUERY, "m")
    assert (p.queries, p.wins, p.ties, p.losses) == (3, 1, 1, 1)
    assert p.mean_difference == pytest.approx((0.2 + 0.0 - 0.4) / 3)
    assert -0.4 - 1e-9 <= p.low <= p.mean_difference <= p.high <= 0.2 + 1e-9


def test_interval_collapses_when_every_difference_is_equal() -> None:
    same = {"a": {"q1": {"m": 0.7}, "q2": {"m": 0.6}}, "b": {"q1": {"m": 0.5}, "q2": {"m": 0.4}}}
    p = paired("a", "b", same, "m")
    assert p.low == pytest.approx(0.2) and p.high == pytest.approx(0.2) and p.wins == 2


def test_no_shared_query_is_an_error() -> None:
    with pytest.raises(KeyError, match="share no scored query"):
        paired("a", "b", {"a": {"x": {"m": 1.0}}, "b": {"y": {"m": 1.0}}}, "m")
