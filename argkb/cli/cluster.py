"""``argkb cluster``: claim and premise clusters, and SAME_AS edges for semantic reuse."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from argkb.cli.app import (
    Connection,
    FiniteRange,
    connection_options,
    counted,
    handle_errors,
    json_option,
    main,
    to_json,
    warn_unfinished_loads,
)
from argkb.cli.progress import progress_for
from argkb.cluster.knn import METHODS
from argkb.cluster.store import DEFAULT_CUT, DEFAULT_K, DEFAULT_SAME_AS

if TYPE_CHECKING:
    from argkb.cluster.knn import Method
    from argkb.pipeline import ClusterReport


@main.command("cluster")
@connection_options
@click.option(
    "--claim-cut",
    type=FiniteRange(0, 2, min_open=True),
    default=None,
    help=f"Cosine distance cut for claim clusters (average linkage) [{DEFAULT_CUT['claim']:.2f}].",
)
@click.option(
    "--premise-cut",
    type=FiniteRange(0, 2, min_open=True),
    default=None,
    help="Cosine distance cut for premise clusters (complete linkage) "
    f"[{DEFAULT_CUT['premise']:.2f}].",
)
@click.option(
    "--same-as",
    type=FiniteRange(0, 1, min_open=True),
    default=None,
    help=f"Cosine similarity for SAME_AS edges claim -> premise [{DEFAULT_SAME_AS:.2f}].",
)
@click.option(
    "--k",
    type=click.IntRange(1, 1000),
    default=DEFAULT_K,
    show_default=True,
    help="Nearest neighbours found per unit.",
)
@click.option(
    "--knn",
    "knn_method",
    type=click.Choice(METHODS),
    default="auto",
    show_default=True,
    help="How a rebuild finds neighbours: exact (in the client; cost grows with the square of "
    "the units), gds (GDS K-Nearest Neighbors on the server, approximate), index (the vector "
    "index, one query per unit); auto: exact up to 250,000 units, then gds, else index.",
)
@click.option("--skip-same-as", is_flag=True, help="Do not (re)write SAME_AS edges.")
@click.option(
    "--rebuild",
    is_flag=True,
    help="Cluster every unit from scratch, replacing the clusters (default: only units without "
    "a cluster are placed, when clusters made by the same method exist).",
)
@json_option
@handle_errors
def cluster_cmd(
    conn: Connection,
    claim_cut: float | None,
    premise_cut: float | None,
    same_as: float | None,
    k: int,
    knn_method: Method,
    skip_same_as: bool,
    rebuild: bool,
    as_json: bool,
) -> None:
    """Cluster claims and premises that mean the same (needs `argkb embed` first).

    Third step of the pipeline (load -> embed -> cluster -> pagerank [-> stance] -> query):
    needs 'argkb embed' first; 'argkb query' reads the clusters, and 'argkb pagerank --reuse
    semantic' the SAME_AS edges.

    Claims: average linkage (Dumani et al. 2020); premises: complete linkage (Dumani 2019); both
    exact per connected component of the graph of each unit's k nearest neighbours (--knn).

    Once clusters exist, a run places only the units without a cluster (a corpus loaded since):
    into an existing cluster where the linkage allows it at the same cut, else into new clusters
    among themselves; old memberships stay. --rebuild (or another cut) clusters everything again.
    """
    from argkb.pipeline import cluster

    warn_unfinished_loads(conn)
    report = cluster(
        conn.driver(), conn.database, cuts={"claim": claim_cut, "premise": premise_cut}, k=k,
        rebuild=rebuild, knn_method=knn_method, same_as=same_as, skip_same_as=skip_same_as,
        progress=progress_for(as_json),
    )  # fmt: skip
    if as_json:
        click.echo(to_json({"runs": report.runs, "same_as_edges": report.same_as_edges,
                            "same_as_mode": report.same_as_mode}))  # fmt: skip
        return
    _print_cluster(report)


def _print_cluster(report: ClusterReport) -> None:
    """What ``argkb cluster`` prints: per kind how it ran, then the SAME_AS edges. A run with
    nothing new says so (it said "0 new units, 0 joined existing clusters, 0 -> 0 new clusters;
    cf of 0 premise clusters updated")."""
    idle = all(r.mode == "incremental" and not r.new_units and not r.touched for r in report.runs)
    for run in report.runs:
        s = run.stats
        timing = ", ".join(f"{k} {v:.1f}s" for k, v in run.seconds.items())
        if run.mode == "incremental" and not run.new_units and not run.touched:
            click.echo(f"{run.kind} clusters ({run.method}): up to date, every {run.kind} with "
                       "an embedding has a cluster")  # fmt: skip
        elif run.mode == "incremental":
            click.echo(
                f"{run.kind} clusters ({run.method}), incremental: "
                f"{counted(run.new_units, 'new unit')}, {run.joined:,} joined existing clusters, "
                f"{s['items']:,} -> {counted(run.new_clusters, 'new cluster')}; cf of "
                f"{counted(run.touched, 'premise cluster')} updated; {timing}"
            )
        else:
            click.echo(
                f"{run.kind} clusters ({run.method}), rebuilt ({run.reason}): "
                f"{counted(s['items'], 'unit')} -> {counted(s['clusters'], 'cluster')} "
                f"({counted(s['singletons'], 'singleton')}, largest {s['largest']}), "
                f"{counted(run.pairs, 'neighbour pair')} ({run.knn}), {timing}"
            )
    same = report.same_as_edges
    if same is None:
        return
    if idle and not same:
        click.echo("SAME_AS edges: nothing new to write (--rebuild or --same-as writes all again)")
    else:
        written = "written again" if report.same_as_mode == "incremental" else "written"
        click.echo(f"SAME_AS edges {written}: {same:,}")
