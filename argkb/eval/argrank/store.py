"""The Neo4j layer of the Webis-ArgRank-17 evaluation: load, rank, read back, score."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
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
    import numpy as np

    from argkb.loaders.argrank import load_benchmark
    from argkb.rank.store import export_graph, run_pagerank

    if shared not in ("pool", "split"):
        raise EvaluationError(f"shared must be 'pool' or 'split', got {shared!r}")
    if pagerank_norm not in ("maps", "none"):
        raise EvaluationError(f"pagerank_norm must be 'maps' or 'none', got {pagerank_norm!r}")
    if seeds < 0:
        raise EvaluationError(f"seeds must be >= 0, got {seeds}")
    seconds: dict[str, float] = {}
    clock = time.perf_counter()
    arguments = load_benchmark(data)
    if not arguments:
        raise EvaluationError(f"{data}: the benchmark has no arguments")
    echo(f"benchmark: {len(arguments)} arguments, {len(conclusion_groups(arguments))} conclusions")
    summary = load_dataset(driver, data, database=database, progress=progress)
    seconds["load"] = time.perf_counter() - clock
    echo(
        f"graph {summary.corpus}: {'already loaded' if summary.already_loaded else 'loaded'}, "
        f"{summary.arguments:,} arguments, {summary.units:,} units"
    )

    clock = time.perf_counter()
    # Adapted PageRank with shared="pool" is classic PageRank on the unit edges with weight 1
    # (argkb.rank.pagerank.unit_edges), which is what run_pagerank's "classic" variant computes.
    variant: Literal["adapted", "classic"] = "classic" if shared == "pool" else "adapted"
    run = run_pagerank(driver, database, alpha=alpha, variant=variant, echo=echo)
    seconds["pagerank"] = time.perf_counter() - clock
    echo(f"PageRank: {run.iterations} iterations over {run.units:,} units")

    clock = time.perf_counter()
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
    seconds["score"] = time.perf_counter() - clock

    content: list[ScoreRow] = []
    if embed is not None:
        clock = time.perf_counter()
        echo("embedding the benchmark texts")
        content = content_rows(arguments, pagerank_scores, embed)
        seconds["content"] = time.perf_counter() - clock

    found: list[Variant] = []
    graph_counts: dict[str, int] = {"units": run.units, "arguments": run.arguments}
    if variants:
        clock = time.perf_counter()
        graph = export_graph(driver, database)
        index = {u: int(np.searchsorted(graph.unit_ids, info.node)) for u, info in units.items()}
        arrays = GraphArrays(
            len(graph.unit_ids), graph.conclusions, graph.premise_indptr, graph.premise_units
        )
        found = pagerank_variants(
            arrays,
            arguments,
            index,
            frequency,
            {u: units[u].premise_uses for u in premise_ids},
            alpha=alpha,
            shared=shared,
        )
        seconds["variants"] = time.perf_counter() - clock
    return ArgRankReport(
        data=str(data),
        alpha=alpha,
        shared=shared,
        pagerank_norm=pagerank_norm,
        seeds=seeds,
        table=table,
        content=content,
        variants=found,
        load={
            "corpus": summary.corpus,
            "already_loaded": summary.already_loaded,
            "arguments": summary.arguments,
            "units": summary.units,
            "seconds": summary.seconds,
        },
        pagerank={
            "variant": run.variant,
            "iterations": run.iterations,
            "residual": run.residual,
            "units": run.units,
            "arguments": run.arguments,
            "seconds": run.seconds,
        },
        graph=graph_counts,
        content_method=dict(content_method or {}),
        seconds=seconds,
    )
