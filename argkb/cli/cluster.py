"""``argkb cluster``: claim and premise clusters, and SAME_AS edges for semantic reuse."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from argkb.cluster.store import Kind

from argkb.cli.app import Connection, connection_options, handle_errors, json_option, main, to_json


@main.command("cluster")
@connection_options
@click.option(
    "--claim-cut",
    type=click.FloatRange(0, 2, min_open=True),
    default=None,
    help="Cosine distance cut for claim clusters (average linkage) [0.25].",
)
@click.option(
    "--premise-cut",
    type=click.FloatRange(0, 2, min_open=True),
    default=None,
    help="Cosine distance cut for premise clusters (complete linkage) [0.40].",
)
@click.option(
    "--same-as",
    type=click.FloatRange(0, 1, min_open=True),
    default=None,
    help="Cosine similarity for SAME_AS edges claim -> premise [0.60].",
)
@click.option(
    "--k",
    type=click.IntRange(1, 1000),
    default=30,
    show_default=True,
    help="Neighbours asked of the vector index per unit.",
)
@click.option("--skip-same-as", is_flag=True, help="Do not (re)write SAME_AS edges.")
@json_option
@handle_errors
def cluster_cmd(
    conn: Connection,
    claim_cut: float | None,
    premise_cut: float | None,
    same_as: float | None,
    k: int,
    skip_same_as: bool,
    as_json: bool,
) -> None:
    """Cluster claims and premises that mean the same (needs `argkb embed` first).

    Claims: average linkage (Dumani et al. 2020); premises: complete linkage (Dumani 2019); both
    exact per connected component of the vector-index neighbour graph.
    """
    from tqdm import tqdm

    from argkb.cluster.store import DEFAULT_SAME_AS, cluster_units, link_same_as

    driver = conn.driver()
    runs = []
    kinds: tuple[tuple[Kind, float | None], ...] = (("claim", claim_cut), ("premise", premise_cut))
    for kind, cut in kinds:
        with tqdm(unit=" units", desc=f"cluster {kind}s", disable=as_json, file=sys.stderr) as bar:
            runs.append(
                cluster_units(
                    driver,
                    conn.database,
                    kind=kind,
                    cut=cut,
                    k=k,
                    progress=bar.update,
                )
            )
    same = None
    if not skip_same_as:
        with tqdm(unit=" claims", desc="SAME_AS", disable=as_json, file=sys.stderr) as bar:
            same = link_same_as(
                driver, conn.database, threshold=same_as or DEFAULT_SAME_AS, progress=bar.update
            )
    if as_json:
        click.echo(to_json({"runs": runs, "same_as_edges": same}))
        return
    for run in runs:
        s = run.stats
        click.echo(
            f"{run.kind} clusters ({run.method}): {s['items']:,} units -> {s['clusters']:,} "
            f"clusters ({s['singletons']:,} singletons, largest {s['largest']}), "
            f"{run.pairs:,} neighbour pairs, "
            + ", ".join(f"{k} {v:.1f}s" for k, v in run.seconds.items())
        )
    if same is not None:
        click.echo(f"SAME_AS edges: {same:,}")
