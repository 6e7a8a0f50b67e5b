"""``argkb pagerank``: argument PageRank written back to the graph."""

from __future__ import annotations

from typing import TYPE_CHECKING, get_args

import click

from argkb.cli.app import (
    Connection,
    FiniteRange,
    connection_options,
    counted,
    handle_errors,
    json_option,
    main,
    one_line,
    to_json,
    warn_unfinished_loads,
)
from argkb.cli.progress import progress_for
from argkb.rank.store import Reuse, Variant

if TYPE_CHECKING:
    from argkb.pipeline import Engine

# -- pagerank ----------------------------------------------------------------------------------


@main.command("pagerank")
@connection_options
@click.option(
    "--alpha",
    type=FiniteRange(0, 1, min_open=True, max_open=True),
    default=0.85,
    show_default=True,
    help="Weight of the recursive summand (damping), 0 < alpha < 1. At 0 every unit would get "
    "the same score 1/n whatever the graph, so 0 is refused rather than overwrite the stored "
    "PageRank with it; at 1 the ground relevance would drop out.",
)
@click.option(
    "--tol",
    type=FiniteRange(0, min_open=True),
    default=1e-10,
    show_default=True,
    help="L1 tolerance between iterates (independent of graph size).",
)
@click.option("--max-iter", type=click.IntRange(min=1), default=200, show_default=True)
@click.option(
    "--reuse",
    type=click.Choice(get_args(Reuse)),
    default="exact",
    show_default=True,
    help="semantic: merge units joined by SAME_AS edges.",
)
@click.option(
    "--variant",
    type=click.Choice(get_args(Variant)),
    default="adapted",
    show_default=True,
    help="adapted: EACL 2017 argument PageRank; classic: textbook.",
)
@click.option("--warm", is_flag=True, help="Start from the stored scores (warm start).")
@click.option(
    "--engine",
    type=click.Choice(["scipy", "spark"]),
    default="scipy",
    show_default=True,
    help="spark: iterate in Apache Spark (local mode) over a Parquet edge list "
    "(needs the spark extra and Java 17+).",
)
@click.option(
    "--top", type=click.IntRange(min=0), default=10, show_default=True, help="Show this many units."
)
@json_option
@handle_errors
def pagerank_cmd(
    conn: Connection,
    alpha: float,
    tol: float,
    max_iter: int,
    reuse: Reuse,
    variant: Variant,
    warm: bool,
    engine: Engine,
    top: int,
    as_json: bool,
) -> None:
    """Compute argument PageRank (Wachsmuth et al., EACL 2017) and write it back.

    Writes Unit.pagerank and Argument.relevance_{min,avg,max,sum}. Fourth step of the
    pipeline (load -> embed -> cluster -> pagerank [-> stance] -> query): needs 'argkb load'
    first ('argkb cluster' too for --reuse semantic); 'argkb query' ranks with its scores. After
    a further load, --warm starts from the stored scores.
    """
    from argkb.pipeline import pagerank
    from argkb.rank.store import top_units

    driver = conn.driver()
    warn_unfinished_loads(conn)
    run = pagerank(driver, conn.database, alpha=alpha, tol=tol, max_iter=max_iter, reuse=reuse,
                   variant=variant, warm=warm, engine=engine,
                   progress=progress_for(as_json))  # fmt: skip
    best = top_units(driver, conn.database, top)
    if as_json:
        click.echo(to_json({"run": run, "top": best}))
        return
    click.echo(
        f"{run.variant} PageRank ({run.reuse} reuse, alpha {run.alpha}): {run.units:,} units, "
        f"{run.arguments:,} arguments, {run.iterations} iterations, residual {run.residual:.2e}"
    )
    click.echo("seconds: " + ", ".join(f"{k} {v:.2f}" for k, v in run.seconds.items()))
    if best:
        click.echo(f"top {counted(len(best), 'unit')}:")
    for row in best:
        uses = row["used_as_premise"]
        arguments = "argument " if uses == 1 else "arguments"
        text = one_line(row["text"], 80)
        click.echo(f"  {row['pagerank']:.5f}  premise of {uses:>3} {arguments}  {text}")
