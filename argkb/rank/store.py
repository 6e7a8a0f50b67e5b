"""The Neo4j round trip of argument PageRank: export the unit graph, compute, write back.

Export reads pages of internal ids per kind (units, arguments with their premises) plus a stream
of ``SAME_AS`` pairs for semantic reuse, turned into integer arrays; Neo4j's internal ids are
mapped to a dense ``0 .. n-1`` range by sorting. The algorithm (:mod:`argkb.rank.pagerank`) never
sees Neo4j. Scores go back as ``Unit.pagerank`` and ``Argument.relevance_{min,avg,max,sum}`` in
batched ``UNWIND`` writes.

Both directions keep :data:`WORKERS` requests in flight (threads over one driver, one auto-commit
transaction per page or batch, disjoint nodes, so no lock waits): while the server answers one
page or writes one batch, Python decodes the previous page or encodes the next batch, and a
second server thread can run. Measured on the 1M-unit benchmark graph, see
``docs/benchmarks.md``.

Semantic reuse (``reuse="semantic"``): units joined by ``SAME_AS`` edges are merged into one
graph node (connected components), so a paraphrased conclusion counts as reused; every unit of a
component gets the component's score.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from argkb.db import cypher, jobs
from argkb.db.writes import run_writes

if TYPE_CHECKING:
    import neo4j
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

Reuse = Literal["exact", "semantic"]
Variant = Literal["adapted", "classic"]
# Rows per write transaction. Writing properties a node does not have yet (the first run)
# allocates property records, and at 50k rows per transaction the transaction state made the
# server's young-generation GC pause ~0.3 s every 1-2 s: on the 1M-unit graph (1M units, 2M
# arguments with 4 values each, fresh store, load average 5-7) 10k rows took 30 s of server CPU
# against 42 s at 50k (wall 35-48 s against 59-72 s); 5k was no better than 10k.
WRITE_BATCH = 10_000
# Requests in flight at once, for the export pages and the write batches.
WORKERS = 2


@dataclass
class UnitGraph:
    """The argument graph as arrays; ``unit_ids``/``argument_ids`` are Neo4j internal ids."""

    unit_ids: NDArray[np.int64]
    argument_ids: NDArray[np.int64]
    conclusions: NDArray[np.int64]  # dense unit index per argument
    premise_indptr: NDArray[np.int64]
    premise_units: NDArray[np.int64]
    previous: NDArray[np.float64] | None  # stored pagerank, for warm starts
    node_of_unit: NDArray[np.int64]  # graph node per unit (identity unless semantic reuse)
    n_nodes: int


@dataclass
class PageRankRun:
    """What ``argkb pagerank`` did, with seconds per phase."""

    variant: str
    reuse: str
    alpha: float
    units: int
    arguments: int
    graph_nodes: int
    iterations: int
    residual: float
    seconds: dict[str, float] = field(default_factory=dict)


def _stream(driver: neo4j.Driver, database: str | None, name: str) -> Any:
    """Yield the records of a read query without collecting them all first."""
    with driver.session(database=database, default_access_mode="READ", fetch_size=20_000) as s:
        yield from s.run(cypher.load(name))


def export_graph(
    driver: neo4j.Driver,
    database: str | None = None,
    *,
    reuse: Reuse = "exact",
    page: int = 250_000,
    previous: bool = True,
    workers: int = WORKERS,
) -> UnitGraph:
    """Read the unit graph from Neo4j as arrays.

    Pages of ``page`` internal ids, each answered as a few flat integer lists in one record
    (id seeks, no label scan per page), so decoding stays cheap at millions of nodes. Up to
    ``workers`` pages are requested at once, so that decoding one page in Python overlaps the
    server's work on the next. ``previous=False`` skips reading the stored ``Unit.pagerank``
    (only a warm start needs it), which saves reading every unit's properties.

    A conclusion or premise that is not an exported unit is left out, with its argument if it is
    the conclusion, as a ``:Unit`` label test in the query would (see export_arguments.cypher).
    """
    import numpy as np

    top = cypher.read(driver, "rank/max_ids", database=database)[0]
    unit_query = "rank/export_units" if previous else "rank/export_unit_ids"
    unit_jobs = [(unit_query, lo) for lo in range(0, int(top["max_unit"]) + 1, page)]
    arg_jobs = [
        ("rank/export_arguments", lo) for lo in range(0, int(top["max_argument"]) + 1, page)
    ]

    rows = _fetch_pages(driver, database, unit_jobs + arg_jobs, page=page, workers=workers)
    unit_rows, arg_rows = rows[: len(unit_jobs)], rows[len(unit_jobs) :]

    def joined(parts: list[dict[str, Any]], key: str, dtype: Any = np.int64) -> NDArray[Any]:
        return np.concatenate([part[key] for part in parts]) if parts else np.zeros(0, dtype)

    unit_ids = joined(unit_rows, "ids")
    order = np.argsort(unit_ids)
    unit_ids = unit_ids[order]
    prev = joined(unit_rows, "pagerank", np.float64)[order] if previous else None

    arg_ids, conclusion_units, indptr, premise_units = _arguments_csr(
        unit_ids,
        joined(arg_rows, "ids"),
        joined(arg_rows, "conclusions"),
        joined(arg_rows, "edge_arguments"),
        joined(arg_rows, "edge_premises"),
    )
    node_of_unit = np.arange(len(unit_ids), dtype=np.int64)
    n_nodes = len(unit_ids)
    if reuse == "semantic":
        node_of_unit, n_nodes = _same_as_components(driver, database, unit_ids)
    stored = prev is not None and bool((prev >= 0).any())
    return UnitGraph(
        unit_ids=unit_ids,
        argument_ids=arg_ids,
        conclusions=conclusion_units,
        premise_indptr=indptr,
        premise_units=premise_units,
        previous=np.where(prev >= 0, prev, 0.0) if stored and prev is not None else None,
        node_of_unit=node_of_unit,
        n_nodes=n_nodes,
    )


def _fetch_pages(
    driver: neo4j.Driver,
    database: str | None,
    jobs: list[tuple[str, int]],
    *,
    page: int,
    workers: int,
) -> list[dict[str, Any]]:
    """Each ``(query, lo)`` job's one record as arrays, in job order; up to ``workers`` at once."""
    import numpy as np

    def fetch(job: tuple[str, int]) -> dict[str, Any]:
        name, lo = job
        # row[key], not row.data(): data() walks every element of the lists in Python
        row = cypher.read(driver, name, database=database, lo=lo, hi=lo + page)[0]
        return {key: np.asarray(row[key], dtype=np.float64 if key == "pagerank" else np.int64)
                for key in row.keys()}  # noqa: SIM118 (iterating a Record yields values)  # fmt: skip

    if workers > 1 and len(jobs) > 1:
        with ThreadPoolExecutor(workers) as pool:
            rows = list(pool.map(fetch, jobs))
    else:
        rows = [fetch(job) for job in jobs]
    return rows


def _arguments_csr(
    unit_ids: NDArray[np.int64],
    arg_ids: NDArray[np.int64],
    conclusions: NDArray[np.int64],
    edge_args: NDArray[np.int64],
    edge_premises: NDArray[np.int64],
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The exported arguments over the units: (argument ids, conclusion unit per argument,
    premise pointer, premise units) with the premises as CSR in the order of the argument ids;
    an argument whose conclusion is not a unit, and a premise that is not one, are left out."""
    import numpy as np

    conclusion_units = _dense(unit_ids, conclusions)
    if (conclusion_units < 0).any():  # an argument concluding a non-unit: leave it out
        known = conclusion_units >= 0
        edge_args = edge_args[np.isin(edge_args, arg_ids[known])]
        arg_ids, conclusion_units = arg_ids[known], conclusion_units[known]
    premise_units = _dense(unit_ids, edge_premises)
    if (premise_units < 0).any():
        known = premise_units >= 0
        edge_args, premise_units = edge_args[known], premise_units[known]
    # premises as CSR over the arguments, in the order of arg_ids (pages and edges arrive in
    # argument order, so both sorts below run over already sorted data)
    position = np.searchsorted(np.sort(arg_ids), edge_args)
    arg_order = np.argsort(arg_ids)
    edge_row = arg_order[position]
    by_row = np.argsort(edge_row, kind="stable")
    counts = np.bincount(edge_row, minlength=len(arg_ids))
    indptr = np.zeros(len(arg_ids) + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    return arg_ids, conclusion_units, indptr, premise_units[by_row]


def _dense(unit_ids: NDArray[np.int64], ids: Any) -> NDArray[np.int64]:
    """Position of each internal id in the sorted ``unit_ids``; -1 where it is not a unit."""
    import numpy as np

    ids = np.asarray(ids, dtype=np.int64)
    if unit_ids.size == 0:
        return np.full(ids.size, -1, dtype=np.int64)
    position = np.searchsorted(unit_ids, ids)
    clipped = np.minimum(position, unit_ids.size - 1)
    return np.where(unit_ids[clipped] == ids, clipped, -1).astype(np.int64)


def _same_as_components(
    driver: neo4j.Driver,
    database: str | None,
    unit_ids: NDArray[np.int64],
) -> tuple[NDArray[np.int64], int]:
    import numpy as np
    from scipy.sparse import coo_array
    from scipy.sparse.csgraph import connected_components

    starts: list[int] = []
    ends: list[int] = []
    for record in _stream(driver, database, "rank/export_same_as"):
        starts.append(record["a"])
        ends.append(record["b"])
    n = len(unit_ids)
    a, b = _dense(unit_ids, starts), _dense(unit_ids, ends)  # both ends are units (the query)
    pairs = coo_array((np.ones(a.size), (a, b)), shape=(n, n))
    count, labels = connected_components(pairs, directed=False)
    return labels.astype(np.int64), int(count)


def write_scores(
    driver: neo4j.Driver,
    database: str | None,
    graph: UnitGraph,
    unit_scores: NDArray[np.float64],
    relevance: dict[str, NDArray[np.float64]],
    *,
    batch: int = WRITE_BATCH,
    workers: int = WORKERS,
) -> None:
    """``Unit.pagerank`` and ``Argument.relevance_*``, ``batch`` rows per transaction.

    Each batch goes as parallel lists (ids, values), built one batch at a time: memory stays at
    a few batches, and lists of numbers encode faster than a map per row (measured 1.1-1.3 s ->
    0.6 s for 113k units and 100k arguments). ``workers`` batches are in flight at once (see the
    module docstring); every batch is its own transaction over nodes no other batch touches.
    """
    unit_query, arg_query = "rank/write_units", "rank/write_arguments"

    def batches() -> Iterable[tuple[str, dict[str, Any]]]:
        for start in range(0, len(graph.unit_ids), batch):
            part = slice(start, start + batch)
            yield (
                unit_query,
                {
                    "ids": graph.unit_ids[part].tolist(),
                    "scores": unit_scores[part].tolist(),
                },
            )
        for start in range(0, len(graph.argument_ids), batch):
            part = slice(start, start + batch)
            params = {"ids": graph.argument_ids[part].tolist()}
            params.update({method: values[part].tolist() for method, values in relevance.items()})
            yield arg_query, params

    run_writes(driver, batches(), database=database, workers=workers)


PageRankCompute = Callable[["UnitGraph", "ArrayLike | None", dict[str, float]], Any]
"""``compute(graph, start, seconds)``: build the chain and iterate over the exported graph's nodes,
from ``start`` (warm start, or None), recording ``build`` and ``iterate`` in ``seconds``;
returns a :class:`argkb.rank.pagerank.PageRankResult`."""


def run_pagerank(
    driver: neo4j.Driver,
    database: str | None = None,
    *,
    alpha: float = 0.85,
    tol: float = 1e-10,
    max_iter: int = 200,
    reuse: Reuse = "exact",
    variant: Variant = "adapted",
    warm: bool = False,
    echo: Callable[[str], None] = lambda _msg: None,
) -> PageRankRun:
    """Export, compute (adapted EACL 2017 PageRank, or classic for comparison), write back."""

    def compute(graph: UnitGraph, start: ArrayLike | None, seconds: dict[str, float]) -> Any:
        from argkb.rank.pagerank import (
            build_argument_transition,
            build_transition,
            power_iteration,
            unit_edges,
        )

        clock = time.perf_counter()
        # arguments over graph nodes (units, or SAME_AS components of units)
        conclusions = graph.node_of_unit[graph.conclusions]
        premise_nodes = graph.node_of_unit[graph.premise_units]
        if variant == "adapted":
            transition = build_argument_transition(
                graph.n_nodes, conclusions, graph.premise_indptr, premise_nodes
            )
        else:
            edges = unit_edges(graph.n_nodes, conclusions, graph.premise_indptr, premise_nodes)
            transition = build_transition(graph.n_nodes, edges.sources, edges.targets)
        seconds["build"] = time.perf_counter() - clock
        clock = time.perf_counter()
        result = power_iteration(
            transition, alpha=alpha, dangling="teleport", tol=tol, max_iter=max_iter,
            start=start,
        )  # fmt: skip
        seconds["iterate"] = time.perf_counter() - clock
        return result

    return pagerank_round_trip(
        driver, database, compute, alpha=alpha, reuse=reuse, variant=variant, warm=warm,
        echo=echo,
    )  # fmt: skip


def pagerank_round_trip(
    driver: neo4j.Driver,
    database: str | None,
    compute: PageRankCompute,
    *,
    alpha: float,
    reuse: Reuse,
    variant: Variant,
    warm: bool,
    echo: Callable[[str], None],
) -> PageRankRun:
    """The Neo4j round trip every PageRank engine shares: export the graph, ``compute`` the
    node scores (SciPy here, Spark in :mod:`argkb.rank.spark`), aggregate per argument, write
    back. ``seconds`` has ``export``, what ``compute`` records, and ``write``."""
    import numpy as np

    from argkb.rank.aggregate import aggregate_all
    from argkb.rank.pagerank import GraphInputError

    if not 0.0 < alpha < 1.0:  # before anything is read or written
        raise GraphInputError(
            f"alpha must lie strictly between 0 and 1, got {alpha}: alpha 0 gives every unit "
            "the same score (the graph ignored) and would overwrite the stored PageRank"
        )
    seconds: dict[str, float] = {}
    clock = time.perf_counter()
    graph = export_graph(driver, database, reuse=reuse, previous=warm)
    seconds["export"] = time.perf_counter() - clock
    echo(f"exported {len(graph.unit_ids):,} units, {len(graph.argument_ids):,} arguments")

    start = None
    if warm and graph.previous is not None and graph.previous.sum() > 0:
        start = np.bincount(graph.node_of_unit, weights=graph.previous, minlength=graph.n_nodes)
    result = compute(graph, start, seconds)

    clock = time.perf_counter()
    unit_scores = np.asarray(result.scores)[graph.node_of_unit]
    relevance = aggregate_all(unit_scores, graph.premise_indptr, graph.premise_units)
    # killed mid-write, some scores are old or missing: the mark tells argkb status (db.jobs)
    with jobs.running(driver, database, "pagerank"):
        write_scores(driver, database, graph, unit_scores, relevance)
    seconds["write"] = time.perf_counter() - clock
    return PageRankRun(
        variant, reuse, alpha, len(graph.unit_ids), len(graph.argument_ids), graph.n_nodes,
        result.iterations, result.residual, seconds,
    )  # fmt: skip


def top_units(driver: neo4j.Driver, database: str | None = None, limit: int = 10) -> list[dict]:
    from neo4j import RoutingControl

    records, _, _ = driver.execute_query(
        cypher.load("rank/top_units"), {"limit": limit},
        database_=database, routing_=RoutingControl.READ,
    )  # fmt: skip
    return [record.data() for record in records]
