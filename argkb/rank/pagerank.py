"""PageRank for argument relevance (Wachsmuth, Stein & Ajjour, EACL 2017, Sections 3-4).

Pure NumPy/SciPy over integer arrays; no Neo4j here. The graph is the *unit graph*: nodes are
argument units ``0 .. n_units - 1``; argument ``i`` has one conclusion unit ``c_i`` and a premise
set ``P_i``, given as CSR-like arrays (``premise_indptr``, ``premise_units``). The adapted PageRank
of Section 4.1 is

    p(c) = (1 - alpha) * ground(c) + alpha * sum_{i : c in P_i} p(c_i) / |P_i|

with ``ground(c) = p(d) * |D| / |A|`` for a unit found on web page ``d`` (uniform without page
scores). It is computed by power iteration over one SciPy CSR transition matrix built once
(:func:`build_argument_transition`, then :func:`power_iteration`), so a benchmark can time the
build and the iteration separately; one iteration costs one sparse mat-vec plus O(n) vector work.

Modelling decisions (the paper leaves these open once units are merged by text, as in its
Section 5.1, where one unit can conclude several arguments):

* **Direction.** Score flows from a conclusion to its premises, as from a page to the pages it
  links to: a unit gains relevance when relevant conclusions use it as a premise.
* **Shared conclusions** (``shared="split"``, default). If ``c`` concludes ``k`` arguments that
  have premises, its score is split equally among them, and each passes its share on as
  ``p(c) / (k * |P_i|)`` per premise: the random surfer at ``c`` picks one of its arguments, then
  one premise. This keeps the per-argument focus normalisation by ``|P_i|`` of Section 4.1 and the
  sum-to-one property of Section 4.2; summing ``p(c) / |P_i|`` over all ``k`` arguments literally
  would pass on ``k`` times the score of ``c`` and need not converge. ``shared="pool"`` instead
  shares ``p(c)`` equally among all premise slots of all its arguments, ``p(c) / sum_j |P_j|``,
  which is classic PageRank on the unit multigraph and rewards arguments with many premises.
  With ``k == 1`` both equal the paper's formula.
* **Arguments without premises** (allowed by Section 3.2) pass nothing and take no share, so
  adding one does not change any score.
* **Dangling units** (units that conclude no argument with a premise, e.g. leaf premises).
  In the paper's formula their score leaks out, so scores sum to less than 1. By default
  (``dangling="ground"``) that mass is handed back in proportion to the ground relevance, as
  :func:`networkx.pagerank` does with its personalisation vector. Then the scores are exactly the
  paper's literal scores (``dangling="drop"``) divided by their sum: with ``delta = sum of dangling
  scores``, ``x = alpha * M x + (alpha * delta + 1 - alpha) * g`` is a scalar multiple of
  ``y = alpha * M y + (1 - alpha) * g``. The ranking is therefore identical and the scores form a
  probability distribution. (Redistributing uniformly instead would change the ranking whenever
  the ground relevance is not uniform, so it is not offered here.)
* **Self-reuse** (an argument that lists its own conclusion as a premise): dropped by default
  (``self_reuse="drop"``), as if that premise were not listed, since an author controls it and
  Section 4.1 rests on relevance the author cannot control; longer cycles are kept, as Section 3.2
  allows them. ``self_reuse="keep"`` keeps the self-loop, counting it in ``|P_i|``.
* **Duplicate premises** in one argument count once: ``P_i`` is a set in Section 3.1.
* **Ground relevance** is normalised to sum to 1. The factor ``|D| / |A|`` of Section 4.1 is meant
  to achieve exactly that and does so only when every page holds the same number of units.
* **Convergence.** Stop when the L1 change between iterates is below an absolute ``tol``. The
  iterate sums to 1, so ``tol`` means the same for every graph size (networkx compares against
  ``n * tol``, which loosens the test as the graph grows). The distance to the fixed point is at
  most ``alpha / (1 - alpha) * residual``. Not converging within ``max_iter`` raises
  :class:`ConvergenceError`; ``start`` warm-starts from an earlier result.

:func:`classic_pagerank` is textbook PageRank over any weighted directed graph with uniform (or
given) teleport and dangling redistribution, arithmetically the same as
:func:`networkx.pagerank`; :func:`unit_edges` gives the unit graph as an edge list for it.
The adapted PageRank with ``shared="split"``, uniform ground and ``dangling="ground"`` equals
classic PageRank on :func:`unit_edges` with their weights ``1 / |P_i|``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from argkb.errors import ConvergenceError, GraphInputError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray
    from scipy.sparse import csr_array

SelfReuse = Literal["drop", "keep"]
Shared = Literal["split", "pool"]
Dangling = Literal["ground", "drop"]


class PageRankResult(NamedTuple):
    """Scores of a power iteration.

    Attributes
    ----------
    scores : ndarray of float64, shape (n,)
        One score per node; sums to 1 unless dangling mass is dropped.
    iterations : int
        Mat-vec products performed.
    residual : float
        L1 norm of the last change between iterates (below ``tol``).
    """

    scores: NDArray[np.float64]
    iterations: int
    residual: float


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


def _drop_slots(
    drop: NDArray[np.bool_], values: NDArray[Any], keys: NDArray[Any], ptr: NDArray[Any]
) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """Remove the slots marked in ``drop`` from CSR arrays ``(values, keys, ptr)``."""
    import numpy as np

    keep = ~drop
    kept_before = np.zeros(keep.size + 1, dtype=ptr.dtype)
    np.cumsum(keep, out=kept_before[1:])
    return values[keep], keys[keep], kept_before[ptr]


def power_iteration(
    transition: Transition,
    *,
    alpha: float = 0.85,
    teleport: ArrayLike | None = None,
    dangling: ArrayLike | Literal["teleport", "drop"] = "teleport",
    tol: float = 1e-10,
    max_iter: int = 200,
    start: ArrayLike | None = None,
) -> PageRankResult:
    """Iterate ``x <- alpha * (M x + (leak . x) * r) + (1 - alpha) * t`` to a fixed point.

    Parameters
    ----------
    transition : Transition
        From :func:`build_transition` or :func:`build_argument_transition`.
    alpha : float
        Weight of the recursive summand, in [0, 1] (``alpha`` of Section 4.1, EACL 2017).
    teleport : array_like of float, shape (n,), optional
        Teleport (ground relevance) ``t``; scaled to sum 1; uniform when omitted.
    dangling : array_like of float, "teleport" or "drop"
        Distribution ``r`` that receives the mass of dangling nodes: a vector (scaled to sum 1),
        the teleport vector, or none (the mass is lost and the scores sum to less than 1).
    tol : float
        Absolute L1 tolerance on the change between iterates; independent of ``n``.
    max_iter : int
        Maximum number of iterations (mat-vec products).
    start : array_like of float, shape (n,), optional
        Initial vector (warm start), scaled to sum 1; uniform when omitted.

    Returns
    -------
    PageRankResult

    Raises
    ------
    ConvergenceError
        If the L1 change is still at least ``tol`` after ``max_iter`` iterations.
    GraphInputError
        If a parameter is out of range or a vector has the wrong shape or negative entries.
    """
    import numpy as np

    matrix, leak = transition
    n = leak.size
    if not 0.0 <= alpha <= 1.0:
        raise GraphInputError(f"alpha must lie in [0, 1], got {alpha}")
    if not tol > 0:
        raise GraphInputError(f"tol must be positive, got {tol}")
    if max_iter < 1:
        raise GraphInputError(f"max_iter must be at least 1, got {max_iter}")
    if n == 0:
        return PageRankResult(np.zeros(0, dtype=np.float64), 0, 0.0)
    uniform = np.full(n, 1.0 / n)
    t = uniform if teleport is None else _distribution(teleport, n, "teleport")
    r: NDArray[np.float64] | None
    if isinstance(dangling, str):
        if dangling not in ("teleport", "drop"):
            raise GraphInputError(f"dangling must be a vector, 'teleport' or 'drop': {dangling!r}")
        r = t if dangling == "teleport" else None
    else:
        r = _distribution(dangling, n, "dangling")
    # A fresh array: the loop reuses the previous iterate's memory for the residual.
    x = uniform.copy() if start is None else _distribution(start, n, "start")
    base = (1.0 - alpha) * t
    # the dangling mass as a plain sum over the dangling nodes: `leak @ x` is a BLAS dot, which
    # OpenBLAS spreads over threads and which cost 4x the mat-vec on a busy 2-core machine
    dangling_nodes = np.flatnonzero(leak)
    residual = float("inf")
    for iteration in range(1, max_iter + 1):
        new = matrix @ x
        new *= alpha
        if r is not None:
            new += (alpha * float(x[dangling_nodes].sum())) * r
        new += base
        x -= new
        np.abs(x, out=x)
        residual = float(x.sum())
        x = new
        if residual < tol:
            return PageRankResult(x, iteration, residual)
    raise ConvergenceError(max_iter, residual, tol)


def argument_pagerank(
    n_units: int,
    conclusions: ArrayLike,
    premise_indptr: ArrayLike,
    premise_units: ArrayLike,
    *,
    alpha: float = 0.85,
    ground: ArrayLike | None = None,
    dangling: Dangling = "ground",
    self_reuse: SelfReuse = "drop",
    shared: Shared = "split",
    tol: float = 1e-10,
    max_iter: int = 200,
    start: ArrayLike | None = None,
) -> PageRankResult:
    """Adapted PageRank ``p(c)`` of every argument unit (Section 4.1 of EACL 2017).

    ``p(c) = (1 - alpha) * ground(c) + alpha * sum_{i : c in P_i} p(c_i) / |P_i|``, with the
    choices for shared conclusions, dangling units and self-reuse described in the module
    docstring.

    Parameters
    ----------
    n_units : int
        Number of argument units (ids ``0 .. n_units - 1``).
    conclusions : array_like of int, shape (m,)
        Conclusion unit of each argument.
    premise_indptr : array_like of int, shape (m + 1,)
    premise_units : array_like of int
        CSR premise sets (see :func:`premise_csr`).
    alpha : float
        Weight of the recursive summand; the paper's ``alpha``.
    ground : array_like of float, shape (n_units,), optional
        Ground relevance ``p(d) * |D| / |A|`` per unit (see :func:`ground_from_sources`), scaled to
        sum 1; uniform ``1 / n_units`` when omitted, as in Section 5.1.
    dangling : {"ground", "drop"}
        Hand the score of dangling units back in proportion to ``ground`` (scores sum to 1), or
        drop it as the literal formula does (same ranking, scores sum to less than 1).
    self_reuse : {"drop", "keep"}
        Whether an argument's premise that equals its own conclusion is ignored.
    shared : {"split", "pool"}
        How the score of a conclusion shared by several arguments is divided.
    tol, max_iter, start
        See :func:`power_iteration`.

    Returns
    -------
    PageRankResult
        ``scores[u]`` is ``p(u)``.

    Raises
    ------
    ConvergenceError
        If ``max_iter`` iterations do not reach ``tol``.
    GraphInputError
        If the arrays are inconsistent or a parameter is out of range.
    """
    if dangling not in ("ground", "drop"):
        raise GraphInputError(f"dangling must be 'ground' or 'drop', got {dangling!r}")
    transition = build_argument_transition(
        n_units, conclusions, premise_indptr, premise_units, self_reuse=self_reuse, shared=shared
    )
    return power_iteration(
        transition,
        alpha=alpha,
        teleport=ground,
        dangling="teleport" if dangling == "ground" else "drop",
        tol=tol,
        max_iter=max_iter,
        start=start,
    )


def classic_pagerank(
    n_nodes: int,
    sources: ArrayLike,
    targets: ArrayLike,
    weights: ArrayLike | None = None,
    *,
    alpha: float = 0.85,
    personalization: ArrayLike | None = None,
    dangling: ArrayLike | None = None,
    tol: float = 1e-10,
    max_iter: int = 200,
    start: ArrayLike | None = None,
) -> PageRankResult:
    """Classic PageRank (Page et al., 1999; the first equation of Section 4.1, EACL 2017).

    Same model as :func:`networkx.pagerank`: out-weights normalised per node, parallel edges
    summed, self-loops kept, teleport to ``personalization`` (uniform by default) and dangling
    mass to ``dangling`` (``personalization`` by default). Only the stopping rule differs: an
    absolute L1 ``tol`` here, ``n_nodes * tol`` in networkx. On the unit graph, pass
    :func:`unit_edges` (conclusion -> premise).

    Parameters
    ----------
    n_nodes : int
    sources, targets : array_like of int, shape (e,)
    weights : array_like of float, shape (e,), optional
    alpha : float
    personalization, dangling : array_like of float, shape (n_nodes,), optional
    tol, max_iter, start
        See :func:`power_iteration`.

    Returns
    -------
    PageRankResult

    Raises
    ------
    ConvergenceError
        If ``max_iter`` iterations do not reach ``tol``.
    """
    transition = build_transition(n_nodes, sources, targets, weights)
    return power_iteration(
        transition,
        alpha=alpha,
        teleport=personalization,
        dangling="teleport" if dangling is None else dangling,
        tol=tol,
        max_iter=max_iter,
        start=start,
    )


def ground_from_sources(unit_source: ArrayLike, source_pagerank: ArrayLike) -> NDArray[np.float64]:
    """Ground relevance ``p(d) * |D| / |A|`` of each unit (Section 4.1 of EACL 2017).

    Parameters
    ----------
    unit_source : array_like of int, shape (n_units,)
        Source (web page, debate, argument map) ``d`` each unit is found on, as an index into
        ``source_pagerank``; -1 for a unit without a known source, which gets the average page
        score ``1 / |D|``. A unit found on several sources must be given one of them.
    source_pagerank : array_like of float, shape (|D|,)
        PageRank ``p(d)`` of each source, summing to 1.

    Returns
    -------
    ndarray of float64, shape (n_units,)
        ``p(d) * |D| / n_units``; it sums to 1 when every source holds the same number of units,
        and :func:`argument_pagerank` rescales it to sum 1 otherwise.
    """
    import numpy as np

    page = np.asarray(source_pagerank, dtype=np.float64)
    if page.ndim != 1 or page.size == 0:
        raise GraphInputError("source_pagerank must be a non-empty one-dimensional array")
    if not np.all(np.isfinite(page)) or np.any(page < 0):
        raise GraphInputError("source_pagerank must be finite and non-negative")
    src = np.asarray(unit_source)
    if src.ndim != 1 or (src.size and not np.issubdtype(src.dtype, np.integer)):
        raise GraphInputError("unit_source must be a one-dimensional array of integers")
    src = src.astype(np.int64)
    if src.size and (src.min() < -1 or src.max() >= page.size):
        raise GraphInputError(f"unit_source must lie in -1 .. {page.size - 1}")
    n_sources, n_units = page.size, src.size
    if n_units == 0:
        return np.zeros(0, dtype=np.float64)
    p = np.where(src >= 0, page[np.maximum(src, 0)], 1.0 / n_sources)
    return p * (n_sources / n_units)
