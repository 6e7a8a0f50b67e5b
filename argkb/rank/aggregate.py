"""From premise PageRank to argument relevance (Wachsmuth, Stein & Ajjour, EACL 2017, Sec. 4.3).

All arguments with the same conclusion compete; each argument's relevance is an aggregate of the
PageRank scores of its premises: (a) minimum, (b) average, (c) maximum or (d) sum. The paper found
Sum best against its benchmark rankings (Table 2, Kendall's tau 0.28), so it is the default for
ranking. Everything is vectorised over CSR premise lists (``premise_indptr``, ``premise_units``,
as built by :func:`argkb.rank.pagerank.premise_csr`); lists are aggregated as given, so pass
premise sets without repeats.

An argument without premises (allowed by Section 3.2 of the paper) has no premise score to
aggregate; it gets ``empty`` (0.0 by default: no support, which is also the empty sum). Ties in
a ranking (exactly equal relevance) are broken by ascending argument id; NaN relevance ranks last.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from argkb.rank.pagerank import GraphInputError, _index_array, _indptr

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

Method = Literal["min", "avg", "max", "sum"]
METHODS: tuple[Method, ...] = ("min", "avg", "max", "sum")


def aggregate_premises(
    scores: ArrayLike,
    premise_indptr: ArrayLike,
    premise_units: ArrayLike,
    method: Method,
    *,
    empty: float = 0.0,
) -> NDArray[np.float64]:
    """Relevance of each argument as an aggregate of its premises' scores (Sec. 4.3, EACL 2017).

    Parameters
    ----------
    scores : array_like of float, shape (n_units,)
        PageRank score of each unit (e.g. :func:`argkb.rank.pagerank.argument_pagerank`).
    premise_indptr : array_like of int, shape (m + 1,)
    premise_units : array_like of int
        Premises of argument ``i``: ``premise_units[premise_indptr[i]:premise_indptr[i+1]]``.
    method : {"min", "avg", "max", "sum"}
        Minimum, average, maximum or sum of the premise scores (methods (a)-(d) of Sec. 4.3).
    empty : float
        Relevance of an argument without premises.

    Returns
    -------
    ndarray of float64, shape (m,)
    """
    import numpy as np

    if method not in METHODS:
        raise GraphInputError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    values = np.asarray(scores, dtype=np.float64)
    if values.ndim != 1:
        raise GraphInputError(f"scores must be one-dimensional, got shape {values.shape}")
    units = _index_array(premise_units, "premise_units", values.size)
    indptr_arr = np.asarray(premise_indptr)
    if indptr_arr.ndim != 1 or indptr_arr.size == 0:
        raise GraphInputError("premise_indptr must be a non-empty one-dimensional array")
    m = indptr_arr.size - 1
    indptr = _indptr(indptr_arr, m, units.size, "premise_indptr")
    sizes = np.diff(indptr)
    out = np.full(m, empty, dtype=np.float64)
    nonempty = sizes > 0
    if not nonempty.any():
        return out
    # reduceat over the starts of non-empty lists only: an empty list would otherwise yield the
    # next list's first element, and a start equal to len(values) is an error.
    premise_scores = values[units]
    starts = indptr[:-1][nonempty]
    if method == "min":
        out[nonempty] = np.minimum.reduceat(premise_scores, starts)
    elif method == "max":
        out[nonempty] = np.maximum.reduceat(premise_scores, starts)
    else:
        sums = np.add.reduceat(premise_scores, starts)
        out[nonempty] = sums if method == "sum" else sums / sizes[nonempty]
    return out


def aggregate_all(
    scores: ArrayLike,
    premise_indptr: ArrayLike,
    premise_units: ArrayLike,
    *,
    empty: float = 0.0,
) -> dict[str, NDArray[np.float64]]:
    """All four premise aggregates of Sec. 4.3 (EACL 2017), keyed by method name.

    Parameters and return values as in :func:`aggregate_premises`, one array per method.
    """
    return {
        method: aggregate_premises(scores, premise_indptr, premise_units, method, empty=empty)
        for method in METHODS
    }


def order_by_relevance(
    conclusions: ArrayLike, relevance: ArrayLike
) -> dict[int, NDArray[np.int64]]:
    """Arguments of each conclusion, most relevant first (the rankings evaluated in Sec. 6).

    Parameters
    ----------
    conclusions : array_like of int, shape (m,)
        Conclusion unit of each argument.
    relevance : array_like of float, shape (m,)
        Relevance of each argument.

    Returns
    -------
    dict of int to ndarray of int64
        For each conclusion with at least one argument (keys ascending), the argument ids by
        decreasing relevance; ties by ascending argument id; NaN last.
    """
    import numpy as np

    conc = _index_array(conclusions, "conclusions", None)
    rel = np.asarray(relevance, dtype=np.float64)
    if rel.shape != conc.shape:
        raise GraphInputError(f"relevance must have shape {conc.shape}, got {rel.shape}")
    ids = np.arange(conc.size, dtype=np.int64)
    # lexsort: last key is primary. Negated relevance ascending = relevance descending; NaN
    # sorts after every number, so it comes last.
    order = np.lexsort((ids, -rel, conc))
    sorted_conc = conc[order]
    cuts = np.flatnonzero(sorted_conc[1:] != sorted_conc[:-1]) + 1
    groups = np.split(order, cuts) if order.size else []
    return {int(conc[group[0]]): group for group in groups}


def rank_arguments(
    scores: ArrayLike,
    conclusions: ArrayLike,
    premise_indptr: ArrayLike,
    premise_units: ArrayLike,
    method: Method = "sum",
    *,
    empty: float = 0.0,
) -> dict[int, NDArray[np.int64]]:
    """Rank the arguments of each conclusion by a premise aggregate (Sec. 4.3 and 6, EACL 2017).

    Parameters
    ----------
    scores : array_like of float, shape (n_units,)
        PageRank score of each unit.
    conclusions : array_like of int, shape (m,)
        Conclusion unit of each argument.
    premise_indptr, premise_units
        CSR premise lists, as in :func:`aggregate_premises`.
    method : {"min", "avg", "max", "sum"}
        Aggregate; Sum (the default) correlated best with the paper's benchmark (Table 2).
    empty : float
        Relevance of an argument without premises.

    Returns
    -------
    dict of int to ndarray of int64
        As in :func:`order_by_relevance`.
    """
    relevance = aggregate_premises(scores, premise_indptr, premise_units, method, empty=empty)
    return order_by_relevance(conclusions, relevance)
