"""``argkb cypher`` (the browsing library), ``argkb bloom`` and ``argkb analytics``."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import click

from argkb.cli.app import (
    Connection,
    connection_options,
    counted,
    echo_err,
    handle_errors,
    json_option,
    main,
    not_blank,
    to_json,
)

# -- cypher ------------------------------------------------------------------------------------


@main.group("cypher")
def cypher_group() -> None:
    """The Cypher browsing library: documented queries to paste into Neo4j Browser."""


@cypher_group.command("list")
@json_option
@handle_errors
def list_cmd(as_json: bool) -> None:
    """List the browsing queries: name, what they return, parameters and title."""
    from argkb.explore import library

    queries = library.all_queries()
    if as_json:
        click.echo(to_json([_describe(q) for q in queries]))
        return
    width = max(len(q.name) for q in queries)
    for query in queries:
        params = " ".join(f"${p.name}" for p in query.parameters)
        click.echo(f"{query.name:<{width}}  {query.returns:<5}  {query.title}"
                   + (f"  [{params}]" if params else ""))  # fmt: skip


def _describe(query: Any) -> dict[str, Any]:
    return {
        "name": query.name,
        "title": query.title,
        "shows": query.shows,
        "returns": query.returns,
        "parameters": [dataclasses.asdict(p) for p in query.parameters],
    }


@cypher_group.command("show")
@click.argument("name")
@handle_errors
def show_cmd(name: str) -> None:
    """Print the query NAME as it is pasted into Browser (its :param lines are in its header)."""
    from argkb.explore import library

    click.echo(library.get(name).text, nl=False)


def _parse_params(values: tuple[str, ...]) -> dict[str, str]:
    given: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--param")
        given[key.strip()] = value
    return given


_CELL = 60


def _cell(value: Any) -> str:
    if isinstance(value, dict) and "nodes" in value and "relationships" in value:
        texts = [_node_text(node) for node in value["nodes"]]
        return " - ".join(texts)
    if isinstance(value, dict) and "labels" in value:
        return _node_text(value)
    text = f"{value:.6g}" if isinstance(value, float) else str(value)
    return text if len(text) <= _CELL else text[: _CELL - 3] + "..."


def _node_text(node: dict[str, Any]) -> str:
    props = node["properties"]
    name = props.get("text") or props.get("title") or node["key"]
    short = name if len(name) <= 30 else name[:27] + "..."
    return f"({':'.join(node['labels'])} {short})"


@cypher_group.command("run")
@connection_options
@click.argument("name")
@click.option(
    "--param",
    "params",
    multiple=True,
    metavar="KEY=VALUE",
    help="A query parameter (repeat for more); typed as the query declares (integer, float, "
    "string). Parameters with a default may be left out.",
)
@json_option
@handle_errors
def run_cmd(conn: Connection, name: str, params: tuple[str, ...], as_json: bool) -> None:
    """Run the browsing query NAME and print its rows (nodes and paths as their text)."""
    from argkb.explore import library

    query = library.get(name)
    bound = library.bind(query, _parse_params(params))
    rows = library.run(conn.driver(), name, bound, database=conn.database)
    if as_json:
        click.echo(to_json(rows))
        return
    if not rows:
        click.echo("(no rows)")
        return
    columns = list(rows[0])
    cells = [[_cell(row[col]) for col in columns] for row in rows]
    widths = [max(len(col), *(len(r[i]) for r in cells)) for i, col in enumerate(columns)]
    click.echo("  ".join(col.ljust(w) for col, w in zip(columns, widths, strict=True)).rstrip())
    for row in cells:
        click.echo("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    click.echo(f"({counted(len(rows), 'row')})")


@cypher_group.command("export")
@click.option(
    "--zip",
    "zip_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the queries as a .zip of .cypher files (drop it on Browser's Favorites to import).",
)
@click.option(
    "--grass",
    "grass_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write argkb's Browser style (.grass; drop it on Browser's style panel).",
)
@handle_errors
def export_cmd(zip_path: Path | None, grass_path: Path | None) -> None:
    """Write the browsing queries for Browser's favourites and/or its style file."""
    from argkb.explore import library, style

    if zip_path is None and grass_path is None:
        raise click.UsageError("give --zip FILE, --grass FILE or both")
    if zip_path is not None:
        written = library.export_zip(zip_path)
        click.echo(f"wrote {len(written)} queries to {zip_path}")
    if grass_path is not None:
        style.write_grass(grass_path)
        click.echo(f"wrote the Browser style to {grass_path}")


# -- bloom -------------------------------------------------------------------------------------


@main.group("bloom")
def bloom_group() -> None:
    """Neo4j Bloom: a perspective for argkb's graph (Bloom runs in Desktop or Aura)."""


@bloom_group.command("perspective")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="The perspective file to write (JSON).",
)
@click.option(
    "--name",
    default="argkb",
    show_default=True,
    callback=not_blank(": Bloom lists perspectives by name"),
    help="The perspective's name.",
)
@handle_errors
def perspective_cmd(output: Path, name: str) -> None:
    """Write a Bloom perspective: categories, pro/con styling, search phrases, scene actions."""
    from argkb.explore.bloom import write_perspective

    data = write_perspective(output, name)
    click.echo(
        f"wrote {output}: {len(data['categories'])} categories, "
        f"{len(data['templates'])} search phrases, {len(data['sceneActions'])} scene actions"
    )


# -- analytics ---------------------------------------------------------------------------------


@main.command("analytics")
@connection_options
@click.option(
    "--concurrency",
    type=click.IntRange(1, 64),
    default=4,
    show_default=True,
    help="GDS threads per algorithm (GDS Community, the managed server's, runs at most 4).",
)
@json_option
@handle_errors
def analytics_cmd(conn: Connection, concurrency: int, as_json: bool) -> None:
    """Run GDS on the server: Louvain communities, connected components and betweenness of
    the unit graph, and GDS PageRank compared with argkb's; writes them back for styling.

    Writes Unit.community, Unit.component, Unit.betweenness, Unit.gds_pagerank, and
    Argument.community and Argument.component (those of its conclusion).
    """
    from argkb.explore.analytics import run_analytics

    result = run_analytics(
        conn.driver(), conn.database, concurrency=concurrency,
        echo=(lambda _msg: None) if as_json else echo_err,
    )  # fmt: skip
    if as_json:
        click.echo(to_json(result))
        return
    click.echo(f"units: {result.units:,}, links: {result.links:,}")
    modularity = "n/a (no links)" if result.modularity is None else f"{result.modularity:.3f}"
    click.echo(f"communities (Louvain): {result.communities:,}, modularity {modularity}")
    click.echo(f"weakly connected components: {result.components:,}")
    click.echo(f"largest betweenness: {result.max_betweenness:.1f}")
    click.echo(f"GDS PageRank: {result.pagerank_iterations} iterations"
               + ("" if result.pagerank_converged else " (did not converge)"))  # fmt: skip
    corr = result.correlation
    if corr is None:
        click.echo(
            "rank correlation with argkb's pagerank: none (no unit has a score of "
            "`argkb pagerank`, or one of the two scores is the same for every unit)"
        )
    else:
        click.echo(
            f"rank correlation with argkb's pagerank over {corr.units:,} units: "
            f"Kendall tau {corr.kendall_tau:.3f}, Spearman rho {corr.spearman_rho:.3f}"
        )
