"""Paired comparison of two systems over the same queries: wins, ties, losses and an interval.

A mean over 8 or 20 queries hides how often a ranker really beats its baseline. For each system
against a baseline this reports, over the queries both were scored on, the number of queries it
wins, ties and loses on one metric, the mean difference, and a 95 % percentile bootstrap
interval of that mean difference (queries resampled with replacement, seeded, 10,000 draws;
Efron & Tibshirani 1993, ch. 13). Where queries come in groups that are not independent (the
biased and the neutral query of one SIGIR-19 issue), the groups are resampled instead, each with
all its queries (a cluster bootstrap). Pure Python and NumPy; no Neo4j.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["Paired", "paired"]


@dataclass(frozen=True)
class Paired:
    """``system`` against ``baseline`` on ``metric``, per query."""

    system: str
    baseline: str
    metric: str
    queries: int
    wins: int
    ties: int
    losses: int
    mean_difference: float
    low: float  # 2.5th percentile of the bootstrapped mean difference
    high: float  # 97.5th percentile


def paired(
    system: str,
    baseline: str,
    per_query: Mapping[str, Mapping[str, Mapping[str, float]]],
    metric: str,
    *,
    draws: int = 10_000,
    seed: int = 0,
    tie: float = 1e-9,
    groups: Mapping[str, str] | None = None,
) -> Paired:
    """Compare ``per_query[system]`` with ``per_query[baseline]`` (system -> qid -> metric).

    ``groups`` (qid -> group) makes the interval resample groups rather than queries; a query
    it does not name is its own group. Raises ``KeyError`` naming what is missing when a system
    or the metric is not there.
    """
    import numpy as np

    a, b = per_query[system], per_query[baseline]
    qids = sorted(set(a) & set(b))
    if not qids:
        raise KeyError(f"{system!r} and {baseline!r} share no scored query")
    diff = np.asarray([a[q][metric] - b[q][metric] for q in qids], dtype=np.float64)
    of_query = [(groups or {}).get(q, f"query:{q}") for q in qids]
    names = sorted(set(of_query))
    index = {name: i for i, name in enumerate(names)}
    member = np.asarray([index[name] for name in of_query])
    sums = np.bincount(member, weights=diff, minlength=len(names))
    counts = np.bincount(member, minlength=len(names)).astype(np.float64)
    drawn = np.random.default_rng(seed).integers(0, len(names), size=(draws, len(names)))
    means = sums[drawn].sum(axis=1) / counts[drawn].sum(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return Paired(
        system, baseline, metric, len(qids),
        wins=int((diff > tie).sum()), ties=int((np.abs(diff) <= tie).sum()),
        losses=int((diff < -tie).sum()), mean_difference=float(diff.mean()),
        low=float(low), high=float(high),
    )  # fmt: skip
