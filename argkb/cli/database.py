"""``argkb init|status|db clear|db drop``: the database's schema, its state, a fresh start, and
removing one loaded corpus.

``argkb load`` and ``argkb embed``, which fill it, are in :mod:`argkb.cli.data`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from argkb.cli.app import (
    Connection,
    connection_options,
    counted,
    handle_errors,
    json_option,
    main,
    to_json,
)

if TYPE_CHECKING:
    from argkb.db.schema import ServerInfo
    from argkb.db.staleness import Stale


@main.command("init")
@connection_options
@click.option(
    "--dimensions",
    type=click.IntRange(1, 4096),  # Neo4j's vector indexes take at most 4096
    default=384,
    show_default=True,
    help="Embedding size for the vector indexes (384 = all-MiniLM-L6-v2).",
)
@json_option
@handle_errors
def init_cmd(conn: Connection, dimensions: int, as_json: bool) -> None:
    """Create constraints, full-text and vector indexes (idempotent).

    Returns once the indexes it created are online: over a loaded graph (recreating an index a
    killed bulk load left dropped) their population can take minutes, and a query does without
    an index until it is online. A full-text index an older argkb made with another analyzer is
    built again with the schema's (`argkb status` warns about such an index)."""
    from argkb.db.schema import init_schema

    report = init_schema(conn.driver(), conn.database, dimensions=dimensions)
    if as_json:
        click.echo(to_json(report))
        return
    indexes = len(report.indexes)
    for index in report.rebuilt:
        click.echo(f"rebuilt full-text index {index['name']}: analyzer {index['have']} -> "
                   f"{index['want']}")  # fmt: skip
    click.echo(
        f"schema ready: {report.created:,} created now, "
        f"{counted(len(report.constraints), 'constraint')}, "
        f"{indexes:,} index{'' if indexes == 1 else 'es'}"
    )


@main.command("status")
@connection_options
@json_option
@handle_errors
def status_cmd(conn: Connection, as_json: bool) -> None:
    """Server version, plugins, node/relationship counts, every index with its state, and what
    is stale since the last load (with the command that brings it up to date)."""
    from argkb.db.schema import (
        constraints,
        corpora,
        graph_counts,
        incomplete_corpora,
        indexes,
        missing_schema,
        outdated_indexes,
        server_info,
    )
    from argkb.db.staleness import stale_steps

    driver = conn.driver()
    info = server_info(driver, conn.database)
    counts = graph_counts(driver, conn.database)
    found_constraints = constraints(driver, conn.database)
    found_indexes = indexes(driver, conn.database)
    missing = missing_schema(found_constraints, found_indexes)
    unfinished = incomplete_corpora(driver, conn.database)
    stale = stale_steps(driver, conn.database)
    loaded = corpora(driver, conn.database)
    if as_json:
        payload = {
            "server": info,
            "counts": counts,
            "corpora": loaded,
            "constraints": found_constraints,
            "indexes": found_indexes,
            "missing": missing,
            "outdated": outdated_indexes(found_indexes),
            "incomplete_loads": unfinished,
            "stale": stale,
        }
        click.echo(to_json(payload))
        return
    _print_status(info, counts, found_constraints, found_indexes, missing, unfinished, stale)
    _print_corpora(loaded)


@main.group("db")
def db_group() -> None:
    """The database as a whole."""


@db_group.command("clear")
@connection_options
@click.option("--yes", is_flag=True, help="Do not ask for confirmation (for scripts).")
@click.option(
    "--keep-schema", is_flag=True, help="Keep constraints and indexes; delete only the data."
)
@json_option
@handle_errors
def clear_cmd(conn: Connection, yes: bool, keep_schema: bool, as_json: bool) -> None:
    """Delete every node and relationship, and drop constraints and indexes: a fresh database.

    Evaluations (`argkb eval dataset`, `eval microtexts`) want one. Asks for confirmation unless
    --yes. Clears the managed local server; a server named by NEO4J_URI is never touched unless
    its address is also given explicitly with --uri on the command line.
    """
    from click.core import ParameterSource

    from argkb.db.clear import clear_database, contents

    context = click.get_current_context()
    if conn.uri and context.get_parameter_source("uri") is not ParameterSource.COMMANDLINE:
        raise click.ClickException(
            f"NEO4J_URI names a server argkb does not manage ({conn.uri}); `argkb db clear` "
            "clears it only when you give --uri explicitly on the command line"
        )
    if as_json and not yes:
        raise click.ClickException("--json needs --yes (a script cannot answer the question)")
    driver = conn.driver()
    where = conn.uri or "the managed local server"
    database = conn.database or "the default database"
    if not yes:
        found = contents(driver, conn.database, keep_schema=keep_schema)
        schema = (
            ""
            if keep_schema
            else f", {len(found.constraints)} constraints and {len(found.indexes)} indexes"
        )
        click.confirm(
            f"Delete {found.nodes:,} nodes, {found.relationships:,} relationships{schema} "
            f"of {database} on {where}?",
            abort=True,
        )
    report = clear_database(driver, conn.database, keep_schema=keep_schema)
    if as_json:
        click.echo(to_json(report))
        return
    click.echo(
        f"cleared {database} on {where}: {report.nodes:,} nodes, "
        f"{report.relationships:,} relationships deleted"
        + ("" if keep_schema else f", {len(report.constraints)} constraints and "
           f"{len(report.indexes)} indexes dropped")
    )  # fmt: skip


@db_group.command("drop")
@click.argument("corpus")
@connection_options
@click.option("--yes", is_flag=True, help="Do not ask for confirmation (for scripts).")
@json_option
@handle_errors
def drop_cmd(conn: Connection, corpus: str, yes: bool, as_json: bool) -> None:
    """Remove one loaded corpus: CORPUS is its id, as 'argkb load' prints it (format:hash).

    Its arguments go with their edges, and the units and sources no other corpus uses; the rest
    of the graph stays. For a load that was interrupted and will not be run again (its file
    changed), or a corpus loaded by mistake. Clusters and PageRank are not recomputed here:
    'argkb status' lists them as stale and 'argkb update' redoes them. The full-text indexes
    are built again, so that BM25 scores no longer count the corpus's texts (queries meanwhile
    answer without them, with a note). Asks unless --yes.
    """
    from argkb.ingest_drop import drop_corpus

    if as_json and not yes:
        raise click.ClickException("--json needs --yes (a script cannot answer the question)")
    if not yes:
        click.confirm(f"Remove corpus {corpus} and what only it brought?", abort=True)
    stored = drop_corpus(conn.driver(), corpus, database=conn.database)
    counts = {key: stored.get(key) for key in ("arguments", "units", "sources")}
    if as_json:
        click.echo(to_json({"corpus": corpus, "status": stored.get("status"), **counts,
                            "redo": stored.get("redo", []),
                            "rebuilt": stored.get("rebuilt", [])}))  # fmt: skip
        return
    listed = ", ".join(f"{v:,} {k}" for k, v in counts.items() if isinstance(v, int))
    click.echo(f"removed corpus {corpus} ({stored.get('status')}{'; ' + listed if listed else ''})")
    if stored.get("rebuilt"):
        click.echo(f"rebuilt the full-text indexes {', '.join(stored['rebuilt'])}: BM25 scores "
                   "no longer count its texts")  # fmt: skip
    redo = stored.get("redo", [])
    if redo:
        derived = " and ".join(
            (["the clusters"] if any(r.startswith("cluster:") for r in redo) else [])
            + (["PageRank"] if "pagerank" in redo else [])
        )
        click.echo(f"{derived} still count it: run 'argkb update' to redo them")


def _print_status(
    info: ServerInfo,
    counts: dict[str, dict[str, int]],
    found_constraints: list[dict[str, Any]],
    found_indexes: list[dict[str, Any]],
    missing: list[dict[str, str]],
    unfinished: list[dict[str, Any]],
    stale: list[Stale],
) -> None:
    """``argkb status`` for a person: server, counts, schema, then warnings and stale steps."""
    click.echo(f"Neo4j {info.version} {info.edition}")
    for name, version in info.plugins.items():
        click.echo(f"  plugin {name}: {version or 'not loaded'}")
    tables = [("nodes", counts["labels"]), ("relationships", counts["relationships"])]
    if "premise_stance" in counts:
        tables.append(("stances", counts["premise_stance"]))
    for title, table in tables:
        listed = ", ".join(f"{key} {value}" for key, value in table.items()) or "none"
        click.echo(f"{title + ':':<15}{listed}")
    click.echo(f"{'constraints:':<15}{len(found_constraints)}")
    click.echo("indexes:")
    for index in found_indexes:
        on = f"{','.join(index['labelsOrTypes'] or [])}({','.join(index['properties'] or [])})"
        click.echo(
            f"  {index['name']:<20} {index['type']:<9} {on:<24} {index['state']} "
            f"{index['populationPercent']:.0f}%"
        )
    if _no_schema(missing):
        click.echo(f"  none of argkb's: {_schema_size(missing)} MISSING")
    for gap in [] if _no_schema(missing) else missing:
        click.echo(f"  {gap['name']:<20} {gap['kind']:<9} {'':<24} MISSING")
    _print_warnings(counts, found_indexes, missing, unfinished, stale)


def _no_schema(missing: list[dict[str, str]]) -> bool:
    """Whether none of argkb's schema exists (a fresh or cleared database): ``argkb status``
    then says so once, where it listed every constraint and index as missing, each with a
    warning (17 of each)."""
    from argkb.db.schema import expected_schema

    return len(missing) == len(expected_schema())


def _schema_size(missing: list[dict[str, str]]) -> str:
    """``7 constraints and 10 indexes``: what of argkb's schema is missing."""
    constraints = sum(1 for gap in missing if gap["kind"] == "CONSTRAINT")
    indexes = len(missing) - constraints
    return (
        f"{counted(constraints, 'constraint')} and {indexes:,} index{'' if indexes == 1 else 'es'}"
    )


def _print_corpora(loaded: list[dict[str, Any]], most: int = 20) -> None:
    """The loaded corpora, one line each (at most ``most``), with how to remove one."""
    if not loaded:
        return
    click.echo(f"corpora:       {len(loaded)} ('argkb db drop ID' removes one)")
    for row in loaded[:most]:
        size = counted(row["arguments"], "argument") if row["arguments"] is not None else ""
        if row.get("shared"):  # repeated from corpora loaded before it, left to them
            size += f" (and {row['shared']:,} shared)"
        files = ", ".join(Path(f).name for f in row["files"] or [])
        click.echo(f"  {row['cid']}  {row['status']}  {size}  {files}".rstrip())
    if len(loaded) > most:
        click.echo(f"  ... and {len(loaded) - most} more ('argkb status --json' lists all)")


def _print_warnings(
    counts: dict[str, dict[str, int]],
    found_indexes: list[dict[str, Any]],
    missing: list[dict[str, str]],
    unfinished: list[dict[str, Any]],
    stale: list[Stale],
) -> None:
    """What ``argkb status`` asks a person to do: missing schema, indexes not online yet,
    unfinished loads, and the stale steps with the command that brings each up to date."""
    from argkb.db.schema import load_name, outdated_indexes

    not_online = [i["name"] for i in found_indexes if i["state"] != "ONLINE"]
    dropped = {name: load for load in unfinished for name in load["bulk_indexes"]}
    if _no_schema(missing):
        click.echo(f"warning: argkb's schema is not created ({_schema_size(missing)}): run "
                   "'argkb init' (a first 'argkb load' creates it too)")  # fmt: skip
    for gap in [] if _no_schema(missing) else missing:
        by = dropped.get(gap["name"])
        if by is not None and by["status"] == "dropping":  # argkb.ingest_drop._rebuild_fulltext
            why = (
                f"dropped by 'argkb db drop {by['cid']}' to build it again without the corpus; "
                "run that drop again (or 'argkb init') to rebuild it"
            )
        elif by is not None:
            why = (
                f"dropped by the bulk load {by['cid']}, which builds it again when it "
                "ends; if that load was killed, 'argkb init' or the next load rebuilds it"
            )
        else:
            why = "run 'argkb init' to create it"
        what = "constraint" if gap["kind"] == "CONSTRAINT" else "index"
        click.echo(f"warning: {what} {gap['name']} is missing: {why}")
    for index in outdated_indexes(found_indexes):
        click.echo(
            f"warning: full-text index {index['name']} uses the analyzer {index['have']}, "
            f"argkb's schema has {index['want']}: run 'argkb init' to build it again"
        )
    if not_online:
        click.echo(
            f"note: {', '.join(not_online)} not online yet (populating or failed); "
            "queries that need them wait or fail until they are"
        )
    for load in unfinished:
        click.echo(
            f"warning: {load_name(load)} is {load['status']} since "
            f"{load['started']}: run the same 'argkb load' again to complete it, or "
            f"'argkb db drop {load['cid']}' to remove it"
        )
    behind = [step for step in stale if step.count]
    if counts["labels"].get("Unit"):
        click.echo(
            "stale:" + ("" if behind else " nothing (embeddings, clusters, PageRank current)")
        )
    for step in behind:
        click.echo(f"  {step.count:>9,} {step.description}: run '{step.command}'")
