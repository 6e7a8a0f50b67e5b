"""The unit graph as checked integer arrays: index and pointer validation, CSR premise lists and
the conclusion -> premise edge list of :mod:`argkb.rank.pagerank` (EACL 2017, Sections 3-4).

Pure NumPy; every malformed input raises :class:`argkb.errors.GraphInputError` naming the array.
The modelling decisions (self-reuse, shared conclusions, premise sets) are described in the
:mod:`argkb.rank.pagerank` docstring.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NamedTuple

from argkb.errors import GraphInputError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

SelfReuse = Literal["drop", "keep"]
Shared = Literal["split", "pool"]


class UnitEdges(NamedTuple):
    """The unit graph as an edge list, one edge per (argument, premise) pair.

    Attributes
    ----------
    sources : ndarray of int64
        Conclusion unit of the edge's argument.
    targets : ndarray of int64
        Premise unit.
    arguments : ndarray of int64
        Argument id, ascending (then by target).
    weights : ndarray of float64
        ``1 / |P_i|`` with ``shared="split"``, 1 with ``shared="pool"``.
    """

    sources: NDArray[np.int64]
    targets: NDArray[np.int64]
    arguments: NDArray[np.int64]
    weights: NDArray[np.float64]


def _index_array(values: ArrayLike, name: str, upper: int | None) -> NDArray[np.int64]:
    """Validate a 1-d array of indices in ``[0, upper)`` and return it as int64."""
    import numpy as np

    arr = np.asarray(values)
    if arr.ndim != 1:
        raise GraphInputError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64)
    if not np.issubdtype(arr.dtype, np.integer):
        raise GraphInputError(f"{name} must hold integers, got dtype {arr.dtype}")
    arr = arr.astype(np.int64, copy=False)
    low, high = int(arr.min()), int(arr.max())
    if low < 0 or (upper is not None and high >= upper):
        bound = "" if upper is None else f" < {upper}"
        raise GraphInputError(f"{name} must lie in 0{bound}, found values {low}..{high}")
    return arr


def _indptr(values: ArrayLike, n_rows: int, n_items: int, name: str) -> NDArray[np.int64]:
    """Validate a CSR row pointer for ``n_rows`` rows over ``n_items`` items."""
    import numpy as np

    arr = _index_array(values, name, None)
    if arr.size != n_rows + 1:
        raise GraphInputError(f"{name} must have length {n_rows + 1}, got {arr.size}")
    if arr[0] != 0 or arr[-1] != n_items or np.any(np.diff(arr) < 0):
        raise GraphInputError(
            f"{name} must start at 0, never decrease and end at {n_items} (the number of items)"
        )
    return arr


def _distribution(values: ArrayLike, n: int, name: str) -> NDArray[np.float64]:
    """Validate a non-negative vector of length ``n`` with a positive sum; scale it to sum 1."""
    import numpy as np

    arr = np.asarray(values, dtype=np.float64)
    if arr.shape != (n,):
        raise GraphInputError(f"{name} must have shape ({n},), got {arr.shape}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise GraphInputError(f"{name} must be finite and non-negative")
    total = arr.sum()
    if total <= 0:
        raise GraphInputError(f"{name} must have a positive sum")
    return arr / total


def _unique_pairs(
    rows: NDArray[np.int64], cols: NDArray[np.int64], n_cols: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Pairs sorted by (row, col) without repeats; cheap when they already are."""
    import numpy as np

    if rows.size == 0:
        return rows, cols
    if int(rows.max()) < (2**62) // max(n_cols, 1):
        key = rows * n_cols + cols
        if not np.all(key[1:] > key[:-1]):
            order = np.argsort(key, kind="stable")
            key, rows, cols = key[order], rows[order], cols[order]
        first = np.ones(key.size, dtype=bool)
        first[1:] = key[1:] != key[:-1]
    else:  # the key would overflow int64
        order = np.lexsort((cols, rows))
        rows, cols = rows[order], cols[order]
        first = np.ones(rows.size, dtype=bool)
        first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])
    return rows[first], cols[first]


def premise_csr(
    n_arguments: int, argument_ids: ArrayLike, premise_units: ArrayLike
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Group (argument, premise) pairs into the CSR premise lists used throughout this package.

    Parameters
    ----------
    n_arguments : int
        Number of arguments; ids lie in ``0 .. n_arguments - 1``.
    argument_ids, premise_units : array_like of int, shape (e,)
        One pair per ``PREMISE_OF`` relationship, in any order.

    Returns
    -------
    premise_indptr : ndarray of int64, shape (n_arguments + 1,)
    premise_units : ndarray of int64
        Premises of argument ``i`` are ``premise_units[premise_indptr[i]:premise_indptr[i+1]]``,
        ascending and without duplicates (``P_i`` is a set, Section 3.1 of EACL 2017).
    """
    import numpy as np

    args = _index_array(argument_ids, "argument_ids", n_arguments)
    units = _index_array(premise_units, "premise_units", None)
    if args.size != units.size:
        raise GraphInputError("argument_ids and premise_units must have the same length")
    args, units = _unique_pairs(args, units, int(units.max(initial=-1)) + 1)
    indptr = np.zeros(n_arguments + 1, dtype=np.int64)
    np.cumsum(np.bincount(args, minlength=n_arguments), out=indptr[1:])
    return indptr, units


def _argument_arrays(
    conclusions: ArrayLike,
    premise_units: ArrayLike,
    premise_indptr: ArrayLike,
    n_units: int,
    self_reuse: str,
    shared: str,
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The checked argument arrays (conclusion per argument, premise units, pointer) and options."""
    if self_reuse not in ("drop", "keep"):
        raise GraphInputError(f"self_reuse must be 'drop' or 'keep', got {self_reuse!r}")
    if shared not in ("split", "pool"):
        raise GraphInputError(f"shared must be 'split' or 'pool', got {shared!r}")
    conc = _index_array(conclusions, "conclusions", n_units)
    units = _index_array(premise_units, "premise_units", n_units)
    return conc, units, _indptr(premise_indptr, conc.size, units.size, "premise_indptr")


def unit_edges(
    n_units: int,
    conclusions: ArrayLike,
    premise_indptr: ArrayLike,
    premise_units: ArrayLike,
    *,
    self_reuse: SelfReuse = "drop",
    shared: Shared = "split",
) -> UnitEdges:
    """Edges conclusion -> premise of the unit graph, one per (argument, distinct premise).

    Parameters
    ----------
    n_units : int
        Number of argument units.
    conclusions : array_like of int, shape (m,)
        Conclusion unit ``c_i`` of each argument ``i``.
    premise_indptr : array_like of int, shape (m + 1,)
    premise_units : array_like of int
        Premise set ``P_i`` of argument ``i`` is
        ``premise_units[premise_indptr[i]:premise_indptr[i+1]]``; duplicates count once.
    self_reuse : {"drop", "keep"}
        Whether a premise equal to its argument's conclusion is dropped (see module docstring).
    shared : {"split", "pool"}
        Edge weights: ``1 / |P_i|`` (split) or 1 (pool); normalising them per source gives the
        transition shares of the adapted PageRank (Section 4.1 of EACL 2017).

    Returns
    -------
    UnitEdges
    """
    import numpy as np

    conc, units, indptr = _argument_arrays(
        conclusions, premise_units, premise_indptr, n_units, self_reuse, shared
    )
    args = np.repeat(np.arange(conc.size, dtype=np.int64), np.diff(indptr))
    if self_reuse == "drop":
        keep = units != conc[args]
        args, units = args[keep], units[keep]
    args, units = _unique_pairs(args, units, n_units)  # P_i is a set
    if shared == "split":
        sizes = np.bincount(args, minlength=conc.size)
        weights = 1.0 / sizes[args]
    else:
        weights = np.ones(args.size, dtype=np.float64)
    return UnitEdges(conc[args], units, args, weights)


def checked_edges(
    sources: ArrayLike, targets: ArrayLike, weights: ArrayLike | None, n_nodes: int
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
    """Edge arrays checked for a graph of ``n_nodes``: indices in range, equal lengths, weights
    (default 1) finite and non-negative; raises :class:`GraphInputError` naming what is wrong."""
    import numpy as np

    src = _index_array(sources, "sources", n_nodes)
    dst = _index_array(targets, "targets", n_nodes)
    if src.size != dst.size:
        raise GraphInputError("sources and targets must have the same length")
    if weights is None:
        w = np.ones(src.size, dtype=np.float64)
    else:
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != src.shape:
            raise GraphInputError(f"weights must have shape {src.shape}, got {w.shape}")
        if not np.all(np.isfinite(w)) or np.any(w < 0):
            raise GraphInputError("weights must be finite and non-negative")
    return src, dst, w
