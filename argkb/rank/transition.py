"""Transition matrices of a random surfer for :func:`argkb.rank.pagerank.power_iteration`:
of any weighted directed graph (:func:`build_transition`), and of the adapted argument PageRank
built straight from the premise lists (:func:`build_argument_transition`, Section 4.1 of
Wachsmuth, Stein & Ajjour, EACL 2017).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from argkb.rank.graph_arrays import SelfReuse, Shared, _argument_arrays, checked_edges

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray
    from scipy.sparse import csr_array


class Transition(NamedTuple):
    """Transition matrix of a random surfer, built once and reused by :func:`power_iteration`.

    Attributes
    ----------
    matrix : scipy.sparse.csr_array, shape (n, n)
        ``matrix[v, u]`` is the share of ``u``'s score that ``u`` passes to ``v`` (rows are
        receivers, so ``matrix @ x`` is one CSR mat-vec).
    leak : ndarray of float64, shape (n,)
        Share of each node's score that it passes to nobody: 1 for dangling nodes, 0 otherwise.
    """

    matrix: csr_array
    leak: NDArray[np.float64]


def build_transition(
    n_nodes: int,
    sources: ArrayLike,
    targets: ArrayLike,
    weights: ArrayLike | None = None,
) -> Transition:
    """Row-receiver CSR transition matrix of a weighted directed (multi)graph.

    Each node passes its score to its out-neighbours in proportion to the edge weights; parallel
    edges add up, self-loops are kept, and a node whose out-weights sum to 0 is dangling. This is
    the matrix ``Q.T`` of :func:`networkx.pagerank` (Page et al., 1999).

    Parameters
    ----------
    n_nodes : int
    sources, targets : array_like of int, shape (e,)
        Edge ``j`` goes from ``sources[j]`` to ``targets[j]``.
    weights : array_like of float, shape (e,), optional
        Non-negative edge weights; 1 when omitted.

    Returns
    -------
    Transition
    """
    import numpy as np
    from scipy import sparse

    src, dst, w = checked_edges(sources, targets, weights, n_nodes)
    out = np.bincount(src, weights=w, minlength=n_nodes)
    has_out = out > 0
    scale = np.zeros(n_nodes, dtype=np.float64)
    scale[has_out] = 1.0 / out[has_out]
    matrix = sparse.coo_array((w * scale[src], (dst, src)), shape=(n_nodes, n_nodes)).tocsr()
    matrix.sum_duplicates()
    matrix.eliminate_zeros()
    return Transition(matrix, (~has_out).astype(np.float64))


def build_argument_transition(
    n_units: int,
    conclusions: ArrayLike,
    premise_indptr: ArrayLike,
    premise_units: ArrayLike,
    *,
    self_reuse: SelfReuse = "drop",
    shared: Shared = "split",
) -> Transition:
    """Transition matrix of the adapted PageRank (recursive summand of Section 4.1, EACL 2017).

    ``matrix[v, c] = sum over arguments i with conclusion c and v in P_i of 1 / (k_c * |P_i|)``
    where ``k_c`` is the number of arguments with premises that conclude ``c`` (``shared="split"``;
    ``1 / sum_j |P_j|`` over the arguments ``j`` concluding ``c`` with ``shared="pool"``); see
    :func:`unit_edges` for the parameters and the module docstring for the decisions.

    The matrix is built straight from the premise lists, without the sorted edge list of
    :func:`unit_edges`, because the build runs once per PageRank and used to cost several times
    the whole power iteration (0.68 s against 0.18 s at 5M premise edges). Every step is O(e + n +
    m) over int32 arrays (int64 only for graphs beyond 2^31 entries):

    1. each premise slot gets its argument's conclusion (``np.repeat``); self-reuse is dropped;
    2. the slots are regrouped by premise unit with SciPy's CSR -> CSC conversion, a counting
       sort in C (no comparison sort). It is stable, so each unit's slots stay in argument
       order and a premise repeated within one argument lands in adjacent slots, found with one
       vectorised comparison (``P_i`` is a set);
    3. each slot's value ``1 / (k_c * |P_i|)`` is taken from a per-argument vector.

    A unit that is a premise of several arguments with the same conclusion keeps one entry per
    argument in its row instead of one summed entry, and the columns of a row are in argument
    order, not sorted (the matrix is not in SciPy's canonical format). ``matrix @ x`` adds those
    entries up all the same; merging them would need a sort within every row, which cost more
    than the rest of the build and saves only the few percent of entries that are parallel.
    Call ``matrix.sum_duplicates()`` on the result where the canonical form is needed.

    Returns
    -------
    Transition
    """
    import numpy as np
    from scipy import sparse

    conc, units, indptr = _argument_arrays(
        conclusions, premise_units, premise_indptr, n_units, self_reuse, shared
    )
    m = conc.size
    unit_ptr, slot_arg, slot_conc, sizes = _slots_by_unit(conc, units, indptr, n_units, self_reuse)
    # 3. per-argument share, taken per slot
    has_premises = sizes > 0
    per_conclusion: NDArray[np.float64]
    if shared == "split":  # k_c: arguments with premises per conclusion
        per_conclusion = np.bincount(conc[has_premises], minlength=n_units).astype(np.float64)
        denominator = per_conclusion[conc] * sizes
    else:  # sum_j |P_j| per conclusion
        per_conclusion = np.bincount(conc, weights=sizes, minlength=n_units).astype(np.float64)
        denominator = per_conclusion[conc]
    share = np.zeros(m, dtype=np.float64)
    np.divide(1.0, denominator, out=share, where=has_premises)
    matrix = sparse.csr_array(
        (np.take(share, slot_arg), slot_conc, unit_ptr), shape=(n_units, n_units), copy=False
    )
    return Transition(matrix, (per_conclusion == 0).astype(np.float64))


def _slots_by_unit(
    conc: NDArray[np.int64],
    units: NDArray[np.int64],
    indptr: NDArray[np.int64],
    n_units: int,
    self_reuse: SelfReuse,
) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any], NDArray[np.int64]]:
    """Steps 1 and 2 of :func:`build_argument_transition`: the premise slots regrouped by premise
    unit, as (unit pointer, argument per slot, conclusion per slot), without self-reuse (if
    dropped) and without a premise repeated within one argument; and ``|P_i|`` per argument."""
    import numpy as np
    from scipy import sparse

    m = conc.size
    # int32 indices halve the memory traffic of the build and of every mat-vec
    index = np.int32 if max(n_units, m, units.size) < np.iinfo(np.int32).max else np.int64
    # 1. premise slots in argument order: (conclusion, premise unit), pointer per argument
    slot_conc = np.repeat(conc.astype(index), np.diff(indptr))
    slot_unit = units.astype(index)
    arg_ptr = indptr.astype(index)
    if self_reuse == "drop":
        own = slot_conc == slot_unit
        if own.any():
            slot_conc, slot_unit, arg_ptr = _drop_slots(own, slot_conc, slot_unit, arg_ptr)
    # 2. regroup by premise unit (counting sort); `data` carries each slot's conclusion along
    by_unit = sparse.csr_array(
        (slot_conc, slot_unit, arg_ptr), shape=(m, n_units), copy=False
    ).tocsc()
    unit_ptr, slot_arg, slot_conc = by_unit.indptr, by_unit.indices, by_unit.data
    sizes = np.diff(arg_ptr).astype(np.int64)
    if slot_arg.size > 1:
        repeat = slot_arg[1:] == slot_arg[:-1]
        starts = unit_ptr[1:-1]
        repeat[starts[(starts > 0) & (starts < slot_arg.size)] - 1] = False  # next unit's slots
        if repeat.any():
            sizes -= np.bincount(slot_arg[1:][repeat], minlength=m)
            dup = np.zeros(slot_arg.size, dtype=bool)
            dup[1:] = repeat
            slot_conc, slot_arg, unit_ptr = _drop_slots(dup, slot_conc, slot_arg, unit_ptr)
    return unit_ptr, slot_arg, slot_conc, sizes


def _drop_slots(
    drop: NDArray[np.bool_], values: NDArray[Any], keys: NDArray[Any], ptr: NDArray[Any]
) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """Remove the slots marked in ``drop`` from CSR arrays ``(values, keys, ptr)``."""
    import numpy as np

    keep = ~drop
    kept_before = np.zeros(keep.size + 1, dtype=ptr.dtype)
    np.cumsum(keep, out=kept_before[1:])
    return values[keep], keys[keep], kept_before[ptr]
