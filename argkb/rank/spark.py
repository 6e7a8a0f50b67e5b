"""Argument PageRank on Apache Spark: the path for graphs that outgrow one machine.

The SciPy path (:mod:`argkb.rank.pagerank`) holds the transition matrix in one process's memory.
Here the same power iteration runs as Spark DataFrame joins and aggregations over an edge list in
Parquet, so the graph only has to fit on a cluster's disks. The unit graph is exported from Neo4j
exactly as for SciPy (:func:`argkb.rank.store.export_graph`), turned into weighted edges
conclusion -> premise (:func:`argkb.rank.pagerank.unit_edges`: weight ``1 / |P_i|`` for the
adapted PageRank of EACL 2017, 1 for classic PageRank), written as Parquet, iterated in Spark,
read back from Parquet and written to Neo4j by the same write-back as the SciPy path
(:func:`argkb.rank.store.write_scores`).

The arithmetic mirrors :func:`argkb.rank.pagerank.power_iteration` with a uniform teleport and
dangling mass handed back uniformly (the adapted variant with uniform ground equals classic
PageRank on those weighted edges, see the :mod:`argkb.rank.pagerank` docstring):

    x' = alpha * (M x) + (alpha * sum of x over dangling nodes) / n + (1 - alpha) / n

with ``M[v, u] = w(u, v) * (1 / out(u))``, ``out(u)`` the summed out-weight of ``u`` (a node
with ``out(u) == 0`` is dangling), and the same stopping rule (absolute L1 change below
``tol``). Only the order of the floating-point sums in ``M x`` differs, so the scores agree with
SciPy's to rounding (the test asks for a max abs difference below 1e-9).

Here Spark runs in local mode (``local[2]``, no UI, bound to 127.0.0.1, every temporary file
under one temporary directory); on a cluster the same code runs with another ``master`` and a
``workdir`` on shared storage. pyspark is imported inside the functions, so ``argkb --help``
does not pay for it; it comes with the ``spark`` extra (``pip install -e '.[spark]'``) and needs
a Java 17+ runtime.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argkb.errors import SparkUnavailableError
from argkb.rank.pagerank import (
    ConvergenceError,
    GraphInputError,
    PageRankResult,
    _check_iteration,
    _distribution,
    checked_edges,
)

if TYPE_CHECKING:
    import neo4j
    import numpy as np
    from numpy.typing import ArrayLike, NDArray
    from pyspark.sql import SparkSession

    from argkb.rank.store import PageRankRun, Reuse, UnitGraph, Variant


MASTER = "local[2]"
# Shuffle partitions of the joins and aggregations: Spark's default of 200 is meant for
# clusters; on two local cores each partition is a task, and 200 tiny tasks per stage cost far
# more than the work.
PARTITIONS = 4


@contextmanager
def spark_session(
    tmpdir: str | Path | None = None,
    *,
    master: str = MASTER,
    partitions: int = PARTITIONS,
    conf: dict[str, str] | None = None,
) -> Iterator[SparkSession]:
    """A local Spark session with its temporary files under one directory, stopped on exit.

    Parameters
    ----------
    tmpdir : str or Path, optional
        Where Spark and its JVM keep temporary files (shuffle and spill files, block manager,
        ``java.io.tmpdir``); a fresh temporary directory, removed on exit, when omitted.
    master : str
        Spark master URL; ``local[2]`` uses two cores of this machine.
    partitions : int
        ``spark.sql.shuffle.partitions``.
    conf : dict, optional
        Further Spark settings, applied last.

    Yields
    ------
    pyspark.sql.SparkSession
    """
    with tempfile.TemporaryDirectory(prefix="argkb-spark-") as own:
        root = Path(tmpdir) if tmpdir is not None else Path(own)
        root.mkdir(parents=True, exist_ok=True)
        session = _start(root, master, partitions, conf or {})
        try:
            yield session
        finally:
            session.stop()


def _start(root: Path, master: str, partitions: int, conf: dict[str, str]) -> SparkSession:
    # the driver would otherwise bind to the address its host name resolves to
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    try:
        from pyspark.sql import SparkSession
    except ImportError as err:
        raise SparkUnavailableError(
            f"the Spark engine needs pyspark ({err}); install it with: pip install -e '.[spark]'"
        ) from err

    settings = {
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.driver.host": "127.0.0.1",
        "spark.local.dir": str(root / "local"),
        "spark.sql.warehouse.dir": str(root / "warehouse"),
        "spark.driver.extraJavaOptions": f"-Djava.io.tmpdir={root / 'java'}",
        "spark.sql.shuffle.partitions": str(partitions),
        "spark.default.parallelism": str(partitions),
        "spark.log.level": "ERROR",
        **conf,
    }
    for sub in ("local", "warehouse", "java"):
        (root / sub).mkdir(exist_ok=True)
    builder = SparkSession.builder.master(master).appName("argkb-pagerank")
    for key, value in settings.items():
        builder = builder.config(key, value)
    try:
        return builder.getOrCreate()
    except Exception as err:  # no Java, or the JVM did not start: pyspark raises a bare error
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise SparkUnavailableError(
            f"Spark did not start ({first}); it needs a Java 17+ runtime (JAVA_HOME or java on "
            "PATH)"
        ) from err


def write_edges(
    path: str | Path,
    sources: NDArray[np.int64],
    targets: NDArray[np.int64],
    weights: NDArray[np.float64],
) -> None:
    """Write the edge list as one Parquet file with columns ``src``, ``dst`` (int64), ``w``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({"src": sources, "dst": targets, "w": weights})
    pq.write_table(table, str(path))


def spark_pagerank(
    n_nodes: int,
    sources: ArrayLike,
    targets: ArrayLike,
    weights: ArrayLike | None = None,
    *,
    alpha: float = 0.85,
    tol: float = 1e-10,
    max_iter: int = 200,
    start: ArrayLike | None = None,
    spark: SparkSession | None = None,
    workdir: str | Path | None = None,
) -> PageRankResult:
    """PageRank of a weighted directed graph by power iteration in Spark.

    The same model and stopping rule as :func:`argkb.rank.pagerank.classic_pagerank` with
    uniform personalisation and dangling redistribution: out-weights normalised per node,
    parallel edges summed, self-loops kept. For the adapted argument PageRank pass
    :func:`argkb.rank.pagerank.unit_edges` with its weights.

    Each iteration joins the edges (``src``, ``dst``, ``share``) with the scores on ``src``,
    sums ``share * score`` per ``dst`` and joins the sums back onto all nodes; one action per
    iteration computes the L1 change and the dangling mass for the next one. The iterate is
    materialised with ``localCheckpoint`` every iteration: each step reads the previous
    iterate twice (joined to the edges, and kept for the L1 change), so without cutting the
    lineage the query plan doubles per iteration (``persist`` instead of the checkpoint ran the
    driver out of JVM heap within 13 iterations on a 120-node graph).

    Parameters
    ----------
    n_nodes : int
    sources, targets : array_like of int, shape (e,)
        Edge ``j`` goes from ``sources[j]`` to ``targets[j]``.
    weights : array_like of float, shape (e,), optional
        Non-negative edge weights; 1 when omitted.
    alpha, tol, max_iter, start
        See :func:`argkb.rank.pagerank.power_iteration`.
    spark : pyspark.sql.SparkSession, optional
        A running session (see :func:`spark_session`); a local one is started and stopped when
        omitted.
    workdir : str or Path, optional
        Directory for the Parquet files (edge list in, scores out); a temporary directory when
        omitted.

    Returns
    -------
    PageRankResult

    Raises
    ------
    ConvergenceError
        If the L1 change is still at least ``tol`` after ``max_iter`` iterations.
    GraphInputError
        If the arrays are inconsistent or a parameter is out of range.
    """
    import numpy as np

    src, dst, w = checked_edges(sources, targets, weights, n_nodes)
    _check_iteration(alpha, tol, max_iter)  # the same checks and messages as SciPy's
    if n_nodes == 0:
        return PageRankResult(np.zeros(0, dtype=np.float64), 0, 0.0)
    x0 = None if start is None else _distribution(start, n_nodes, "start")

    with tempfile.TemporaryDirectory(prefix="argkb-pagerank-") as own:
        root = Path(workdir) if workdir is not None else Path(own)
        root.mkdir(parents=True, exist_ok=True)
        write_edges(root / "edges.parquet", src, dst, w)
        if x0 is not None:
            _write_start(root / "start.parquet", x0)
        if spark is None:
            with spark_session(root / "spark") as session:
                iterations, residual = _iterate(session, root, n_nodes, alpha, tol, max_iter)
        else:
            iterations, residual = _iterate(spark, root, n_nodes, alpha, tol, max_iter)
        scores = read_scores(root / "scores.parquet", n_nodes)
    if residual >= tol:
        raise ConvergenceError(max_iter, residual, tol)
    return PageRankResult(scores, iterations, residual)


def _write_start(path: Path, x0: NDArray[np.float64]) -> None:
    """The warm-start vector as Parquet (``node``, ``rank``), as :func:`_iterate` reads it."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    nodes = np.arange(x0.size, dtype=np.int64)
    pq.write_table(pa.table({"node": nodes, "rank": x0}), str(path))


def _iterate(
    spark: SparkSession, root: Path, n: int, alpha: float, tol: float, max_iter: int
) -> tuple[int, float]:
    """Power iteration over ``root/edges.parquet``; writes ``root/scores.parquet``.

    Returns the iterations done and the last L1 change; the scores written are the last iterate
    whether or not it reached ``tol``.
    """
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    edges = spark.read.parquet(str(root / "edges.parquet"))
    out = edges.groupBy("src").agg(F.sum("w").alias("out")).where(F.col("out") > 0)
    # share = w * (1 / out), as build_transition scales; zero-weight edges pass nothing
    shares = (
        edges.join(out, "src")
        .select("src", "dst", (F.col("w") * (F.lit(1.0) / F.col("out"))).alias("share"))
        .where(F.col("share") > 0)
        .repartition("src")
        .persist(StorageLevel.MEMORY_AND_DISK)
    )
    # every node with its dangling flag (no positive out-weight)
    nodes = spark.range(n).withColumnRenamed("id", "node")
    senders = out.select(F.col("src").alias("node"), F.lit(False).alias("dangling"))
    nodes = nodes.join(senders, "node", "left").select(
        "node", F.coalesce(F.col("dangling"), F.lit(True)).alias("dangling")
    )
    if (root / "start.parquet").exists():
        first = spark.read.parquet(str(root / "start.parquet"))
        state = nodes.join(first, "node", "left").select(
            "node", "dangling", F.coalesce(F.col("rank"), F.lit(0.0)).alias("rank")
        )
    else:
        state = nodes.select("node", "dangling", F.lit(1.0 / n).alias("rank"))
    state = state.localCheckpoint(eager=True)
    dangling_mass = _scalar(state.where("dangling").agg(F.sum("rank")).first())

    uniform = 1.0 / n
    base = (1.0 - alpha) * uniform  # (1 - alpha) * t, t uniform
    residual = float("inf")
    iterations = 0
    for iterations in range(1, max_iter + 1):  # noqa: B007 (used after the loop)
        ranks = state.select(F.col("node").alias("src"), "rank")
        received = (
            shares.join(ranks, "src")
            .groupBy("dst")
            .agg(F.sum(F.col("share") * F.col("rank")).alias("received"))
        )
        # the same order of operations as power_iteration: (M x) * alpha + (alpha * D) * r + base
        spread = (alpha * dangling_mass) * uniform
        new = (F.coalesce(F.col("received"), F.lit(0.0)) * F.lit(alpha) + F.lit(spread)) + F.lit(
            base
        )
        step = (
            state.join(received, state["node"] == received["dst"], "left")
            .select("node", "dangling", F.col("rank").alias("old"), new.alias("rank"))
            .localCheckpoint(eager=True)
        )
        row = step.agg(
            F.sum(F.abs(F.col("old") - F.col("rank"))).alias("residual"),
            F.sum(F.when(F.col("dangling"), F.col("rank")).otherwise(F.lit(0.0))).alias("mass"),
        ).first()
        assert row is not None  # an aggregate without grouping has one row
        residual, dangling_mass = _scalar(row["residual"]), _scalar(row["mass"])
        state = step.select("node", "dangling", "rank")
        if residual < tol:
            break
    state.select("node", "rank").write.mode("overwrite").parquet(str(root / "scores.parquet"))
    shares.unpersist()
    return iterations, residual


def _scalar(value: Any) -> float:
    """A float from an aggregate's value or one-column row (``None``, the empty sum, is 0)."""
    if value is not None and not isinstance(value, int | float):
        value = value[0]
    return 0.0 if value is None else float(value)


def read_scores(path: str | Path, n_nodes: int) -> NDArray[np.float64]:
    """Scores written by Spark (Parquet, columns ``node``, ``rank``) as a dense array."""
    import numpy as np
    import pyarrow.parquet as pq

    table = pq.read_table(str(path), columns=["node", "rank"])
    nodes = table.column("node").to_numpy()
    scores = np.full(n_nodes, np.nan, dtype=np.float64)
    scores[nodes] = table.column("rank").to_numpy()
    if nodes.size != n_nodes or np.isnan(scores).any():
        raise GraphInputError(f"{path}: expected one score per node for {n_nodes} nodes")
    return scores


def run_pagerank_spark(
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
    """:func:`argkb.rank.store.run_pagerank` with the iteration in Spark (local mode).

    Export and write-back are the SciPy path's; the edge list goes to Spark as Parquet and the
    scores come back as Parquet. ``seconds`` has ``export``, ``build`` (the edge list),
    ``iterate`` (Spark start, iteration and stop) and ``write``.
    """
    from argkb.rank.pagerank import unit_edges
    from argkb.rank.store import pagerank_round_trip

    def compute(graph: UnitGraph, start: Any, seconds: dict[str, float]) -> Any:
        clock = time.perf_counter()
        conclusions = graph.node_of_unit[graph.conclusions]
        premise_nodes = graph.node_of_unit[graph.premise_units]
        edges = unit_edges(graph.n_nodes, conclusions, graph.premise_indptr, premise_nodes)
        # adapted (EACL 2017, shared="split"): weights 1 / |P_i|; classic: every edge weighs 1
        weights = edges.weights if variant == "adapted" else None
        seconds["build"] = time.perf_counter() - clock

        clock = time.perf_counter()
        echo(f"Spark ({MASTER}): {edges.sources.size:,} edges over {graph.n_nodes:,} nodes")
        result = spark_pagerank(
            graph.n_nodes, edges.sources, edges.targets, weights,
            alpha=alpha, tol=tol, max_iter=max_iter, start=start,
        )  # fmt: skip
        seconds["iterate"] = time.perf_counter() - clock
        return result

    return pagerank_round_trip(
        driver, database, compute, alpha=alpha, reuse=reuse, variant=variant, warm=warm,
        echo=echo,
    )  # fmt: skip
