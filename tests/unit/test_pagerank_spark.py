"""Argument PageRank in Spark (local mode) against the SciPy path on a fixture graph.

The Spark tests start one local Spark session (a JVM, ~10-25 s on this machine) and run a few
dozen iterations, each a handful of Spark jobs, so they are marked slow. Input checks run
without Spark.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from argkb.rank.pagerank import (
    ConvergenceError,
    GraphInputError,
    argument_pagerank,
    classic_pagerank,
    unit_edges,
)
from argkb.rank.spark import read_scores, spark_pagerank, spark_session

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


def fixture_graph() -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """Arguments over 120 units: shared conclusions, cycles, dangling units, self-reuse,
    repeated premises and arguments without premises (CSR premise lists)."""
    rng = np.random.default_rng(16)
    n_units, n_args = 120, 200
    conclusions = rng.integers(0, n_units, size=n_args)
    # conclusions concentrated on a few units, so several arguments share one
    conclusions[:40] = rng.integers(0, 8, size=40)
    premises = [list(rng.integers(0, n_units, size=rng.integers(0, 5))) for _ in range(n_args)]
    premises[0] = [int(conclusions[0]), 5]  # self-reuse
    premises[1] = [2, 2, 3]  # a repeated premise
    premises[2] = []  # no premises
    indptr = np.concatenate([[0], np.cumsum([len(p) for p in premises])]).astype(np.int64)
    units = np.array([u for p in premises for u in p], dtype=np.int64)
    return n_units, conclusions.astype(np.int64), indptr, units


@pytest.fixture(scope="module")
def spark(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SparkSession]:
    with spark_session(tmp_path_factory.mktemp("spark")) as session:
        yield session


@pytest.mark.slow
def test_adapted_pagerank_matches_scipy(spark: SparkSession, tmp_path: Path) -> None:
    n, conclusions, indptr, units = fixture_graph()
    scipy = argument_pagerank(n, conclusions, indptr, units, tol=1e-10)
    edges = unit_edges(n, conclusions, indptr, units)
    result = spark_pagerank(
        n, edges.sources, edges.targets, edges.weights, tol=1e-10, spark=spark, workdir=tmp_path
    )
    diff = float(np.abs(result.scores - scipy.scores).max())
    assert diff < 1e-9, diff
    assert result.iterations == scipy.iterations
    assert result.residual < 1e-10
    assert abs(result.scores.sum() - 1.0) < 1e-12
    # the run went through Parquet: edge list in, scores out
    assert (tmp_path / "edges.parquet").is_file()
    np.testing.assert_array_equal(read_scores(tmp_path / "scores.parquet", n), result.scores)


@pytest.mark.slow
def test_classic_pagerank_with_warm_start_matches_scipy(spark: SparkSession) -> None:
    n, conclusions, indptr, units = fixture_graph()
    edges = unit_edges(n, conclusions, indptr, units)
    start = argument_pagerank(n, conclusions, indptr, units, alpha=0.8).scores
    scipy = classic_pagerank(n, edges.sources, edges.targets, alpha=0.9, start=start)
    cold = classic_pagerank(n, edges.sources, edges.targets, alpha=0.9)
    assert scipy.iterations < cold.iterations  # the start vector is used
    result = spark_pagerank(n, edges.sources, edges.targets, alpha=0.9, start=start, spark=spark)
    diff = float(np.abs(result.scores - scipy.scores).max())
    assert diff < 1e-9, diff
    assert result.iterations == scipy.iterations


@pytest.mark.slow
def test_too_few_iterations_raise_convergence_error(spark: SparkSession) -> None:
    n, conclusions, indptr, units = fixture_graph()
    edges = unit_edges(n, conclusions, indptr, units)
    with pytest.raises(ConvergenceError) as info:
        spark_pagerank(n, edges.sources, edges.targets, edges.weights, max_iter=2, spark=spark)
    assert info.value.iterations == 2
    assert info.value.residual >= 1e-10


@pytest.mark.parametrize(
    ("sources", "targets", "weights", "message"),
    [
        ([0, 5], [1, 2], None, "sources must lie in 0 < 3"),
        ([0, 1], [1], None, "same length"),
        ([0, 1], [1, 2], [1.0, -1.0], "non-negative"),
    ],
)
def test_bad_input_fails_before_spark_starts(
    sources: list[int], targets: list[int], weights: list[float] | None, message: str
) -> None:
    with pytest.raises(GraphInputError, match=message):
        spark_pagerank(3, sources, targets, weights)


def test_empty_graph_needs_no_spark() -> None:
    result = spark_pagerank(0, [], [])
    assert result.scores.shape == (0,)
    assert result.iterations == 0
