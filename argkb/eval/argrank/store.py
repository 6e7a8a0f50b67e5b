"""The Neo4j layer of the Webis-ArgRank-17 evaluation: load, rank, read back, score."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from argkb.db import cypher
from argkb.errors import EvaluationError
from argkb.eval.argrank.content import EmbedFn, ScoreRow, content_rows
from argkb.eval.argrank.report import ArgRankReport
from argkb.eval.argrank.scoring import (
    PagerankNorm,
    Shared,
    conclusion_groups,
    jaccard_scores,
    per_premise,
    table2,
)
from argkb.eval.argrank.variants import GraphArrays, Variant, pagerank_variants

if TYPE_CHECKING:
    import neo4j

    from argkb.eval.argrank.scoring import Table2
    from argkb.ingest import LoadSummary
    from argkb.loaders.argrank import BenchmarkArgument
    from argkb.rank.store import PageRankRun


@dataclass(frozen=True)
class UnitInfo:
    """A benchmark unit as stored: PageRank, f(u) (AIFdb maps), premise uses, internal id."""

    argrank_id: int
    node: int
    pagerank: float | None
    maps: int
    premise_uses: int


def load_dataset(
    driver: neo4j.Driver,
    data: str | Path,
    *,
    database: str | None = None,
    progress: Callable[[int], object] | None = None,
) -> Any:
    """Load the Webis-ArgRank-17 directory with argkb's loader (a no-op when already loaded)."""
    from argkb.db.schema import init_schema
    from argkb.ingest import load_records
    from argkb.loaders import reader

    init_schema(driver, database)
    return load_records(
        driver, "argrank", [data], reader("argrank")([data]), database=database, progress=progress
    )


def read_units(
    driver: neo4j.Driver, unit_ids: Sequence[int], database: str | None = None
) -> dict[int, UnitInfo]:
    """The stored state of the given Webis-ArgRank-17 units, keyed by their id."""
    from neo4j import RoutingControl

    from argkb.loaders.argrank import unit_key

    records, _, _ = driver.execute_query(
        cypher.load("eval/argrank_units"),
        {"uids": [unit_key(u) for u in unit_ids]},
        database_=database,
        routing_=RoutingControl.READ,
    )
    out = {}
    for record in records:
        maps = record["maps"]
        out[int(record["argrank_id"])] = UnitInfo(
            argrank_id=int(record["argrank_id"]),
            node=int(record["node"]),
            pagerank=None if record["pagerank"] is None else float(record["pagerank"]),
            maps=len(str(maps).split()) if maps else 0,
            premise_uses=int(record["premise_uses"]),
        )
    missing = sorted(set(unit_ids) - set(out))
    if missing:
        shown = ", ".join(str(u) for u in missing[:5])
        raise EvaluationError(
            f"{len(missing)} benchmark unit(s) are not in the graph (e.g. {shown}); "
            "load the dataset with `argkb load argrank DIR`"
        )
    return out


def evaluate_argrank(
    driver: neo4j.Driver,
    data: str | Path,
    *,
    database: str | None = None,
    alpha: float = 0.85,
    shared: Shared = "pool",
    seeds: int = 100,
    pagerank_norm: PagerankNorm = "maps",
    embed: EmbedFn | None = None,
    content_method: Mapping[str, Any] | None = None,
    variants: bool = True,
    echo: Callable[[str], None] = lambda _msg: None,
    progress: Callable[[int], object] | None = None,
) -> ArgRankReport:
    """Load, rank with argkb's PageRank round trip, read back, and score Table 2 (EACL 2017).

    Parameters
    ----------
    driver : neo4j.Driver
    data : path
        The Webis-ArgRank-17 directory (``groundtruth.json``, ``ground-truth-list.csv``,
        ``unit-source-list.csv``).
    database : str, optional
    alpha : float
        Damping of the PageRank (the paper does not state its value).
    shared : {"pool", "split"}
        How a conclusion's score is shared by the premises of its arguments: equally by all its
        premise slots (``pool``, which :func:`argkb.rank.store.run_pagerank` computes as its
        ``classic`` variant: unit edges of weight 1), or first among its arguments and then
        among each argument's premises (``split``, its ``adapted`` default). See
        :mod:`argkb.rank.pagerank`.
    seeds : int
        Random draws for the Random row (0: none).
    pagerank_norm : {"maps", "none"}
        Divide a premise's PageRank by its frequency f(u) (number of AIFdb maps), or not.
    embed : callable, optional
        Texts -> L2-normalised vectors; with it, the structure + content rows are added.
    content_method : mapping, optional
        What ``embed`` is (model name, device), recorded in the report.
    variants : bool
        Also score the PageRank variants of :func:`pagerank_variants`.
    echo, progress
        Status lines and load progress (records).

    Returns
    -------
    ArgRankReport
    """
    _check_options(shared=shared, pagerank_norm=pagerank_norm, seeds=seeds)
    seconds: dict[str, float] = {}
    with _timed(seconds, "load"):
        arguments, summary = _load(driver, data, database=database, echo=echo, progress=progress)
    with _timed(seconds, "pagerank"):
        run = _run_pagerank(driver, database, alpha=alpha, shared=shared, echo=echo)
    with _timed(seconds, "score"):
        units, frequency, scores, table = _score(driver, database, arguments, pagerank_norm, seeds)
    content: list[ScoreRow] = []
    if embed is not None:
        with _timed(seconds, "content"):
            content = _content(arguments, scores, embed, echo)
    found: list[Variant] = []
    if variants:
        with _timed(seconds, "variants"):
            found = _variants(driver, database, arguments, units, frequency, alpha, shared)
    return ArgRankReport(
        data=str(data),
        alpha=alpha,
        shared=shared,
        pagerank_norm=pagerank_norm,
        seeds=seeds,
        table=table,
        content=content,
        variants=found,
        load=_load_info(summary),
        pagerank=_run_info(run),
        graph={"units": run.units, "arguments": run.arguments},
        content_method=dict(content_method or {}),
        seconds=seconds,
    )


@contextmanager
def _timed(seconds: dict[str, float], step: str) -> Iterator[None]:
    """Record the wall-clock seconds of the ``with`` block as ``seconds[step]``."""
    clock = time.perf_counter()
    yield
    seconds[step] = time.perf_counter() - clock


def _check_options(*, shared: str, pagerank_norm: str, seeds: int) -> None:
    if shared not in ("pool", "split"):
        raise EvaluationError(f"shared must be 'pool' or 'split', got {shared!r}")
    if pagerank_norm not in ("maps", "none"):
        raise EvaluationError(f"pagerank_norm must be 'maps' or 'none', got {pagerank_norm!r}")
    if seeds < 0:
        raise EvaluationError(f"seeds must be >= 0, got {seeds}")


def read_benchmark(data: str | Path) -> list[BenchmarkArgument]:
    """The benchmark's arguments, the folder's three files checked first, without Neo4j:
    ``argkb eval argrank`` runs this before it connects, so a wrong folder fails before the
    server is started or the graph changed."""
    from argkb.loaders.argrank import check_folder, load_benchmark

    check_folder(data)
    arguments = load_benchmark(data)
    if not arguments:
        raise EvaluationError(f"{data}: the benchmark has no arguments")
    return arguments


def _load(
    driver: neo4j.Driver,
    data: str | Path,
    *,
    database: str | None,
    echo: Callable[[str], None],
    progress: Callable[[int], object] | None,
) -> tuple[list[BenchmarkArgument], LoadSummary]:
    """The benchmark's arguments, and the summary of loading it (or finding it loaded)."""
    arguments = read_benchmark(data)
    echo(f"benchmark: {len(arguments)} arguments, {len(conclusion_groups(arguments))} conclusions")
    summary = load_dataset(driver, data, database=database, progress=progress)
    echo(
        f"graph {summary.corpus}: {'already loaded' if summary.already_loaded else 'loaded'}, "
        f"{summary.arguments:,} arguments, {summary.units:,} units"
    )
    return arguments, summary


def _run_pagerank(
    driver: neo4j.Driver,
    database: str | None,
    *,
    alpha: float,
    shared: Shared,
    echo: Callable[[str], None],
) -> PageRankRun:
    from argkb.rank.store import run_pagerank

    # Adapted PageRank with shared="pool" is classic PageRank on the unit edges with weight 1
    # (argkb.rank.pagerank.unit_edges), which is what run_pagerank's "classic" variant computes.
    variant: Literal["adapted", "classic"] = "classic" if shared == "pool" else "adapted"
    run = run_pagerank(driver, database, alpha=alpha, variant=variant, echo=echo)
    echo(f"PageRank: {run.iterations} iterations over {run.units:,} units")
    return run


def _score(
    driver: neo4j.Driver,
    database: str | None,
    arguments: list[BenchmarkArgument],
    pagerank_norm: PagerankNorm,
    seeds: int,
) -> tuple[dict[int, UnitInfo], dict[int, int], list[list[float]], Table2]:
    """The benchmark units as stored, f(u) per premise, the PageRank score per premise and the
    Table 2 rows (PageRank, frequency, similarity, random)."""
    wanted = sorted(
        {a.conclusion_id for a in arguments} | {p for a in arguments for p in a.premise_ids}
    )
    units = read_units(driver, wanted, database)
    unscored = [u for u, info in units.items() if info.pagerank is None]
    if unscored:
        raise EvaluationError(f"{len(unscored)} benchmark unit(s) have no PageRank after the run")
    premise_ids = sorted({p for a in arguments for p in a.premise_ids})
    frequency = {u: units[u].maps for u in premise_ids}
    pagerank = {
        u: float(units[u].pagerank or 0.0)
        / (max(frequency[u], 1) if pagerank_norm == "maps" else 1)
        for u in premise_ids
    }
    pagerank_scores = per_premise(arguments, pagerank)
    table = table2(
        arguments,
        {
            "pagerank": pagerank_scores,
            "frequency": per_premise(arguments, {u: float(f) for u, f in frequency.items()}),
            "similarity": jaccard_scores(arguments),
        },
        seeds=seeds,
    )
    return units, frequency, pagerank_scores, table


def _content(
    arguments: list[BenchmarkArgument],
    scores: list[list[float]],
    embed: EmbedFn,
    echo: Callable[[str], None],
) -> list[ScoreRow]:
    """The structure + content rows (:func:`content_rows`)."""
    echo("embedding the benchmark texts")
    return content_rows(arguments, scores, embed)


def _variants(
    driver: neo4j.Driver,
    database: str | None,
    arguments: list[BenchmarkArgument],
    units: dict[int, UnitInfo],
    frequency: dict[int, int],
    alpha: float,
    shared: Shared,
) -> list[Variant]:
    """:func:`pagerank_variants` on the unit graph exported from Neo4j."""
    import numpy as np

    from argkb.rank.store import export_graph

    premise_ids = sorted({p for a in arguments for p in a.premise_ids})
    graph = export_graph(driver, database)
    index = {u: int(np.searchsorted(graph.unit_ids, info.node)) for u, info in units.items()}
    arrays = GraphArrays(
        len(graph.unit_ids), graph.conclusions, graph.premise_indptr, graph.premise_units
    )
    return pagerank_variants(
        arrays,
        arguments,
        index,
        frequency,
        {u: units[u].premise_uses for u in premise_ids},
        alpha=alpha,
        shared=shared,
    )


def _load_info(summary: LoadSummary) -> dict[str, Any]:
    return {
        "corpus": summary.corpus,
        "already_loaded": summary.already_loaded,
        "arguments": summary.arguments,
        "units": summary.units,
        "seconds": summary.seconds,
    }


def _run_info(run: PageRankRun) -> dict[str, Any]:
    return {
        "variant": run.variant,
        "iterations": run.iterations,
        "residual": run.residual,
        "units": run.units,
        "arguments": run.arguments,
        "seconds": run.seconds,
    }
