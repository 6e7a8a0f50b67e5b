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

from typing import TYPE_CHECKING, Literal, NamedTuple

from argkb.errors import ConvergenceError, GraphInputError
from argkb.rank.graph_arrays import (  # noqa: F401 (the arrays and their checks, importable here too)
    SelfReuse,
    Shared,
    UnitEdges,
    _argument_arrays,
    _distribution,
    _index_array,
    _indptr,
    _unique_pairs,
    checked_edges,
    premise_csr,
    unit_edges,
)
from argkb.rank.transition import (  # noqa: F401
    Transition,
    _drop_slots,
    build_argument_transition,
    build_transition,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

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
    _check_iteration(alpha, tol, max_iter)
    if n == 0:
        return PageRankResult(np.zeros(0, dtype=np.float64), 0, 0.0)
    t, r, x = _iteration_vectors(n, teleport, dangling, start)
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


def _check_iteration(alpha: float, tol: float, max_iter: int) -> None:
    """The scalar parameters of :func:`power_iteration`, or :class:`GraphInputError`."""
    if not 0.0 <= alpha <= 1.0:
        raise GraphInputError(f"alpha must lie in [0, 1], got {alpha}")
    if not tol > 0:
        raise GraphInputError(f"tol must be positive, got {tol}")
    if max_iter < 1:
        raise GraphInputError(f"max_iter must be at least 1, got {max_iter}")


def _iteration_vectors(
    n: int,
    teleport: ArrayLike | None,
    dangling: ArrayLike | Literal["teleport", "drop"],
    start: ArrayLike | None,
) -> tuple[NDArray[np.float64], NDArray[np.float64] | None, NDArray[np.float64]]:
    """The teleport ``t``, the dangling distribution ``r`` (None: dropped) and the first iterate
    of :func:`power_iteration` over ``n > 0`` nodes, each checked and scaled to sum 1."""
    import numpy as np

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
    return t, r, x


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
