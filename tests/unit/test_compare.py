"""Paired comparison of two runs (hand-computed cases)."""

from __future__ import annotations

import numpy as np
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


def test_query_resampling_is_the_plain_percentile_bootstrap() -> None:
    rng = np.random.default_rng(7)
    diffs = rng.normal(0.02, 0.1, size=20)
    per_query = {"a": {str(i): {"m": float(d)} for i, d in enumerate(diffs)},
                 "b": {str(i): {"m": 0.0} for i in range(20)}}  # fmt: skip
    got = paired("a", "b", per_query, "m", draws=2000, seed=3)
    ordered = np.asarray([per_query["a"][q]["m"] for q in sorted(per_query["a"])])
    drawn = np.random.default_rng(3).integers(0, 20, size=(2000, 20))
    low, high = np.percentile(ordered[drawn].mean(axis=1), [2.5, 97.5])
    assert (got.low, got.high) == pytest.approx((low, high), abs=1e-12)


def test_groups_are_resampled_whole() -> None:
    """Two queries of one issue that move together: resampling issues, not queries, widens
    the interval (the pairs are not independent evidence)."""
    per_query: dict[str, dict[str, dict[str, float]]] = {"a": {}, "b": {}}
    groups: dict[str, str] = {}
    for issue, d in enumerate((0.3, -0.2, 0.25, -0.15, 0.1)):
        for phrasing in ("biased", "neutral"):
            qid = f"{issue}-{phrasing}"
            per_query["a"][qid], per_query["b"][qid] = {"m": d}, {"m": 0.0}
            groups[qid] = str(issue)
    by_query = paired("a", "b", per_query, "m")
    by_issue = paired("a", "b", per_query, "m", groups=groups)
    assert by_issue.mean_difference == by_query.mean_difference
    assert by_issue.high - by_issue.low > by_query.high - by_query.low
