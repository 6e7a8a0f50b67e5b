"""Graded-relevance ranking metrics: DCG, nDCG@k, P@k and Kendall's tau.

The two discounts (``Discount``) are described in :mod:`argkb.eval.metrics`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Literal, TypeAlias

from argkb.errors import MetricInputError

Discount: TypeAlias = Literal["log2(i+1)", "log2(i)"]
"""Name of a rank discount; see :mod:`argkb.eval.metrics`."""

_DISCOUNTS: tuple[str, ...] = ("log2(i+1)", "log2(i)")


def check_k(k: int | None, *, allow_none: bool = False) -> None:
    if k is None and allow_none:
        return
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise MetricInputError(f"the cutoff k must be a positive integer, got {k!r}")


def discount_weights(n: int, discount: Discount) -> list[float]:
    """Return the multiplicative weights of ranks 1..n under ``discount``."""
    if discount == "log2(i+1)":
        return [1.0 / math.log2(rank + 1) for rank in range(1, n + 1)]
    if discount == "log2(i)":
        # log2(1) = 0: Jarvelin & Kekalainen leave ranks below the log base undiscounted.
        return [1.0 if rank < 2 else 1.0 / math.log2(rank) for rank in range(1, n + 1)]
    raise MetricInputError(f"unknown discount {discount!r}; choose one of {_DISCOUNTS}")


def dcg(gains: Iterable[float], k: int | None = None, discount: Discount = "log2(i+1)") -> float:
    """Discounted cumulative gain of a gain vector.

    ``DCG@k = sum_{i=1..k} gain_i * w(i)`` with ``w(i) = 1 / log2(i + 1)`` for the default
    ``"log2(i+1)"`` discount (Burges et al., ICML 2005), or ``w(1) = 1`` and
    ``w(i) = 1 / log2(i)`` for ``i >= 2`` with ``"log2(i)"`` (Jarvelin & Kekalainen, TOIS 2002,
    base 2; the discount of Dumani et al., ECIR 2020, sec. 6.2).

    Parameters
    ----------
    gains : iterable of float
        Gain of the result at rank 1, 2, ... (the gain is used as is, not ``2**rel - 1``).
    k : int, optional
        Cutoff; ranks beyond ``k`` are ignored. ``None`` scores the whole vector.
    discount : {"log2(i+1)", "log2(i)"}
        Rank discount, see above.

    Returns
    -------
    float
        The discounted cumulative gain; 0.0 for an empty vector.
    """
    check_k(k, allow_none=True)
    values = [float(g) for g in gains]
    if k is not None:
        values = values[:k]
    weights = discount_weights(len(values), discount)
    return math.fsum(g * w for g, w in zip(values, weights, strict=True))


def ndcg_from_gains(
    gains: Sequence[float], ideal: Iterable[float], k: int, discount: Discount
) -> float:
    ideal_gains = sorted((float(g) for g in ideal), reverse=True)
    idcg = dcg(ideal_gains, k, discount)
    if idcg <= 0.0:
        return 0.0
    return dcg(gains, k, discount) / idcg


def ndcg_at_k(
    ranked_relevances: Iterable[float],
    ideal_relevances: Iterable[float],
    k: int,
    discount: Discount = "log2(i+1)",
) -> float:
    """Normalised discounted cumulative gain at cutoff ``k`` (standard, graded relevance).

    ``nDCG@k = DCG@k(ranked) / DCG@k(ideal)`` where the ideal list is ``ideal_relevances`` sorted
    in descending order (Jarvelin & Kekalainen, TOIS 2002, with the ``1 / log2(i + 1)`` discount
    of Burges et al., ICML 2005). Used for the nDCG@10 of Wenzlitschke & Suelzle, Touche 2022
    (``papers/002``).

    Parameters
    ----------
    ranked_relevances : iterable of float
        Relevance grade of the returned item at rank 1, 2, ...; the grade is the gain.
    ideal_relevances : iterable of float
        Grades of all judged items for the query, in any order (sorted here).
    k : int
        Cutoff, at least 1.
    discount : {"log2(i+1)", "log2(i)"}
        Rank discount; the default is the standard one.

    Returns
    -------
    float
        nDCG@k in [0, 1] for grades that the ideal list covers; 0.0 when the ideal DCG is 0 (no
        relevant item exists), the convention of every nDCG in :mod:`argkb.eval.metrics`.
    """
    check_k(k)
    return ndcg_from_gains([float(g) for g in ranked_relevances], ideal_relevances, k, discount)


def precision_at_k(ranked_relevances: Iterable[float], k: int) -> float:
    """Precision at cutoff ``k``: the fraction of the first ``k`` results that are relevant.

    A result is relevant when its grade is greater than 0, so boolean flags and graded judgements
    are both accepted. The denominator is always ``k``: a list shorter than ``k`` counts its missing
    ranks as non-relevant (the trec_eval convention; Wenzlitschke & Suelzle, Touche 2022, P@10).

    Parameters
    ----------
    ranked_relevances : iterable of float or bool
        Grade or relevance flag of the result at rank 1, 2, ...
    k : int
        Cutoff, at least 1.

    Returns
    -------
    float
        Precision@k in [0, 1].
    """
    check_k(k)
    relevant = sum(1 for i, grade in enumerate(ranked_relevances) if i < k and float(grade) > 0)
    return relevant / k


def kendall_tau(x: Iterable[float], y: Iterable[float]) -> float:
    """Kendall's tau-b rank correlation between two score vectors over the same items.

    Delegates to :func:`scipy.stats.kendalltau` (``variant="b"``, which corrects for ties in either
    vector as SciPy does; ``nan_policy="propagate"``), as used to compare argument rankings with
    the Webis-ArgRank-17 benchmark in Wachsmuth, Stein & Ajjour, EACL 2017 (``papers/004``), sec. 6.

    Parameters
    ----------
    x, y : iterable of float
        Scores (or ranks) of the same items in the same order.

    Returns
    -------
    float
        tau-b in [-1, 1]. ``nan`` when tau-b is undefined: fewer than two items, either vector
        constant (no untied pair), or a NaN in either input.

    Raises
    ------
    MetricInputError
        If the two vectors differ in length.
    """
    xs = [float(v) for v in x]
    ys = [float(v) for v in y]
    if len(xs) != len(ys):
        raise MetricInputError(f"kendall_tau needs equal lengths, got {len(xs)} and {len(ys)}")
    if len(xs) < 2 or len(set(xs)) < 2 or len(set(ys)) < 2:
        # Undefined; checked here so that no SciPy version warns about it.
        return math.nan
    from scipy.stats import kendalltau

    result = kendalltau(xs, ys, variant="b", nan_policy="propagate")
    return float(result.statistic)
