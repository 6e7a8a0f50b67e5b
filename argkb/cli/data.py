"""``argkb init|status|load|embed|db clear``: schema, state, corpora, embeddings, a fresh start."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import get_args

import click

from argkb.cli.app import (
    Connection,
    connection_options,
    echo_err,
    handle_errors,
    json_option,
    main,
    to_json,
)
from argkb.embed.model import Backend, LongText
from argkb.ingest import OnError

# -- checks of options ---------------------------------------------------------------------------


def _writable_file(value: str | None) -> str | None:
    """``value`` if a file can be created there: its folder exists and is writable."""
    if value is None:
        return None
    import os
    from pathlib import Path

    folder = Path(value).parent
    if not folder.is_dir():
        raise click.BadParameter(f"folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK):
        raise click.BadParameter(f"folder {str(folder)!r} is not writable")
    return value


def check_device(value: str | None) -> str | None:
    """``value`` if torch knows the device and it is present (one line otherwise, no traceback)."""
    if value is None:
        return None
    import torch

    try:
        device = torch.device(value)
    except (RuntimeError, ValueError):
        raise click.BadParameter(f"unknown device {value!r} (cpu, cuda, cuda:1, mps ...)") from None
    present: dict[str, Callable[[], bool]] = {
        "cuda": torch.cuda.is_available,
        "mps": torch.backends.mps.is_available,
    }
    if device.type in present and not present[device.type]():
        raise click.BadParameter(f"device {value!r}: this machine has no {device.type} device")
    gpus = torch.cuda.device_count() if device.type == "cuda" else 0
    if device.type == "cuda" and device.index is not None and device.index >= gpus:
        raise click.BadParameter(f"device {value!r}: this machine has {gpus} GPU(s)")
    return value


# -- database ----------------------------------------------------------------------------------


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
    """Create constraints, full-text and vector indexes (idempotent)."""
    from argkb.db.schema import init_schema

    report = init_schema(conn.driver(), conn.database, dimensions=dimensions)
    if as_json:
        click.echo(to_json(report))
        return
    click.echo(
        f"schema ready: {report.created} created now, "
        f"{len(report.constraints)} constraints, {len(report.indexes)} indexes"
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
        graph_counts,
        incomplete_corpora,
        indexes,
        missing_schema,
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
    if as_json:
        payload = {
            "server": info,
            "counts": counts,
            "constraints": found_constraints,
            "indexes": found_indexes,
            "missing": missing,
            "incomplete_loads": unfinished,
            "stale": stale,
        }
        click.echo(to_json(payload))
        return
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
    for gap in missing:
        click.echo(f"  {gap['name']:<20} {gap['kind']:<9} {'':<24} MISSING")
    not_online = [i["name"] for i in found_indexes if i["state"] != "ONLINE"]
    dropped = {name: load["cid"] for load in unfinished for name in load["bulk_indexes"]}
    for gap in missing:
        if gap["name"] in dropped:
            why = (
                f"dropped by the bulk load {dropped[gap['name']]}, which builds it again when it "
                "ends; if that load was killed, 'argkb init' or the next load rebuilds it"
            )
        else:
            why = "run 'argkb init' to create it"
        what = "constraint" if gap["kind"] == "CONSTRAINT" else "index"
        click.echo(f"warning: {what} {gap['name']} is missing: {why}")
    if not_online:
        click.echo(
            f"note: {', '.join(not_online)} not online yet (populating or failed); "
            "queries that need them wait or fail until they are"
        )
    for load in unfinished:
        files = ", ".join(load["files"] or [])
        click.echo(
            f"warning: load {load['cid']} ({files}) is {load['status']} since "
            f"{load['started']}: run the same 'argkb load' again to complete it"
        )
    behind = [step for step in stale if step.count]
    if counts["labels"].get("Unit"):
        click.echo(
            "stale:" + ("" if behind else " nothing (embeddings, clusters, PageRank current)")
        )
    for step in behind:
        click.echo(f"  {step.count:>9,} {step.description}: run '{step.command}'")


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


# -- load --------------------------------------------------------------------------------------


def _format_choice() -> click.Choice:
    from argkb.loaders import FORMATS

    return click.Choice(sorted(FORMATS))


@main.command("load")
@connection_options
@click.argument("fmt", metavar="FORMAT", type=_format_choice())
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option(
    "--on-error",
    type=click.Choice(get_args(OnError)),
    default="fail",
    show_default=True,
    help="fail: stop at the first bad record; skip: report bad records, load the rest.",
)
@click.option(
    "--reject-report",
    type=click.Path(dir_okay=False),
    callback=lambda _ctx, _param, value: _writable_file(value),
    help="Where --on-error skip writes rejected records (JSONL).",
)
@click.option(
    "--batch-size",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Records per write transaction.",
)
@click.option(
    "--max-text",
    type=click.IntRange(min=1),
    default=100_000,
    show_default=True,
    help="Reject units longer than this many characters.",
)
@click.option(
    "--max-unzipped",
    type=click.IntRange(min=1),
    default=256,
    show_default=True,
    metavar="MIB",
    help="Refuse a zip member that decompresses to more MiB than this (aif zips).",
)
@click.option(
    "--max-zip-ratio",
    type=click.FloatRange(min=1),
    default=100.0,
    show_default=True,
    help="Refuse a zip member over 1 MiB compressed more than this many to one (a zip bomb).",
)
@click.option("--force", is_flag=True, help="Write again even if this content was loaded.")
@click.option("--no-init", is_flag=True, help="Do not create the schema first.")
@click.option(
    "--bulk/--no-bulk",
    default=None,
    help="Build the full-text indexes after the load instead of during it (faster; full-text "
    "queries find nothing meanwhile). Default: bulk for a large input into an empty graph.",
)
@json_option
@handle_errors
def load_cmd(
    conn: Connection,
    fmt: str,
    paths: tuple[str, ...],
    on_error: OnError,
    reject_report: str | None,
    batch_size: int,
    max_text: int,
    max_unzipped: int,
    max_zip_ratio: float,
    force: bool,
    no_init: bool,
    bulk: bool | None,
    as_json: bool,
) -> None:
    """Load a corpus into Neo4j: FORMAT is one of the loaders, PATHS its files or folders.

    First step of the pipeline (load -> embed -> cluster -> pagerank [-> stance] -> query);
    needs nothing before it. Afterwards run 'argkb embed', 'argkb cluster', 'argkb pagerank', or
    'argkb update' for all of them.

    \b
    Formats:
      argsme      args.me corpus: JSON dump or JSONL
      jsonl       generic JSONL, one argument per line (docs/formats.md)
      aif         AIF argument maps: AIFdb or OVA JSON; file, directory or zip
      argkp       IBM ArgKP-2021 directory (arguments, key points, labels)
      argquality  Webis-ArgQuality-20 directory
      argrank     Webis-ArgRank-17 directory (graph + benchmark)
      sigir19     Webis SIGIR-19 argument search study directory (judged args.me)

    Loading the same files again changes nothing; a load that was interrupted (Ctrl-C, killed,
    Neo4j stopped) is completed by running it again. A load that fails on bad input leaves the
    graph as it was. Structure a format allows but argkb does not model (e.g. an AIF inference
    whose premise is a locution) is left out with a warning that counts it.
    """
    from pathlib import Path

    from tqdm import tqdm

    from argkb.db.schema import init_schema, server_info
    from argkb.ingest import load_records
    from argkb.loaders import reader

    driver = conn.driver()
    if no_init:
        server_info(driver, conn.database)  # the version gate still applies
    else:
        init_schema(driver, conn.database)
    if fmt == "aif":
        from argkb.loaders.aif import DEFAULT_ZIP_LIMITS, ZipLimits, read

        member = max_unzipped * 2**20
        limits = ZipLimits(
            member=member, total=max(DEFAULT_ZIP_LIMITS.total, member), ratio=max_zip_ratio
        )
        records = read(list(paths), zip_limits=limits)
    else:
        records = reader(fmt)(list(paths))
    with tqdm(
        unit=" rec",
        desc=f"load {fmt}",
        disable=as_json,
        file=sys.stderr,
        mininterval=0.5,
    ) as bar:
        summary = load_records(
            driver,
            fmt,
            list(paths),
            records,
            database=conn.database,
            on_error=on_error,
            batch_size=batch_size,
            max_text=max_text,
            reject_report=Path(reject_report) if reject_report else None,
            force=force,
            bulk=bulk,
            progress=bar.update,
        )
    if as_json:
        click.echo(to_json(summary))
        return
    if summary.already_loaded:
        click.echo(f"{summary.corpus}: already loaded (use --force to write again)")
    undercuts = f" ({summary.undercuts:,} undercuts)" if summary.undercuts else ""
    click.echo(
        f"corpus {summary.corpus}: {summary.arguments:,} arguments{undercuts}, "
        f"{summary.units:,} units, "
        f"{summary.reuse_edges:,} reuse edges, {summary.sources:,} sources, "
        f"{summary.links:,} links, {summary.rejected:,} rejected"
    )
    if summary.rejected:
        click.echo(f"rejected records written to {summary.reject_report}; first ones:")
        for line in summary.rejected_examples:
            click.echo(f"  {line}")
    if summary.left_out:
        counts = ", ".join(f"{n:,} {kind}" for kind, n in sorted(summary.left_out.items()))
        click.echo(
            f"warning: left out {sum(summary.left_out.values()):,} structures argkb does not "
            f"model ({counts}); first ones:",
            err=True,
        )
        for line in summary.left_out_examples:
            click.echo(f"  {line}", err=True)
    if summary.seconds.get("total"):
        timing = ", ".join(f"{k} {v:.1f}s" for k, v in summary.seconds.items())
        click.echo(f"time: {timing}")


# -- embed -------------------------------------------------------------------------------------


@main.command("embed")
@connection_options
@click.option(
    "--model",
    "model_path",
    type=click.Path(exists=True, file_okay=False),
    help="A local sentence-transformers folder (default: all-MiniLM-L6-v2, bundled).",
)
@click.option(
    "--long-text",
    type=click.Choice(get_args(LongText)),
    default="sentences",
    show_default=True,
    help="How texts longer than the model are embedded (sentences: best on ArgQuality-20, "
    "docs/evaluation.md).",
)
@click.option("--all", "all_units", is_flag=True, help="Re-embed units that have a vector.")
@click.option(
    "--backend",
    type=click.Choice(get_args(Backend)),
    help="torch (sentence-transformers), or ONNX Runtime on the CPU: onnx (same vectors), "
    "onnx-int8 (faster, close vectors; docs/benchmarks.md). Default: $ARGKB_EMBED_BACKEND, "
    "else torch. Queries must use the same backend (set the variable).",
)
@click.option(
    "--device",
    callback=lambda _ctx, _param, value: check_device(value),
    help="cpu, cuda, ... (default: a GPU when present).",
)
@json_option
@handle_errors
def embed_cmd(
    conn: Connection,
    model_path: str | None,
    long_text: LongText,
    all_units: bool,
    backend: Backend | None,
    device: str | None,
    as_json: bool,
) -> None:
    """Embed unit texts (cached by text hash) and store vectors for the vector indexes.

    Second step of the pipeline (load -> embed -> cluster -> pagerank [-> stance] -> query):
    needs 'argkb load' first; 'argkb cluster' and 'argkb query' need its vectors. Embeds only
    units without a vector (--all: every unit).
    """
    from tqdm import tqdm

    from argkb.db.schema import init_schema
    from argkb.embed.model import Embedder
    from argkb.embed.store import count_negations, count_pending, embed_negations, embed_units

    driver = conn.driver()
    embedder = Embedder(model_path, long_text=long_text, device=device, backend=backend)
    init_schema(driver, conn.database, dimensions=embedder.dimensions)
    total = count_pending(driver, conn.database, all_units=all_units)
    with tqdm(total=total, unit=" units", desc="embed", disable=as_json, file=sys.stderr) as bar:
        run = embed_units(driver, embedder, conn.database, all_units=all_units, progress=bar.update)
    # the claims' negations, for the stance-alignment model of `argkb query`
    total = count_negations(driver, conn.database, all_units=all_units)
    with tqdm(total=total, unit=" claims", desc="negations", disable=as_json,
              file=sys.stderr) as bar:  # fmt: skip
        run.negations = embed_negations(driver, embedder, conn.database, all_units=all_units,
                                        progress=bar.update)  # fmt: skip
    # what the first `argkb query` would otherwise make (and wait for): its model's ONNX graph
    query_model = Embedder.for_queries(cache=False).prepare(echo=None if as_json else echo_err)
    run.query_model = str(query_model) if query_model else None
    if as_json:
        click.echo(to_json(run))
        return
    rate = run.units / run.seconds if run.seconds else 0.0
    click.echo(
        f"embedded {run.units:,} units with {run.model} on {run.device} "
        f"in {run.seconds:.1f} s ({rate:,.0f} units/s), and the negations of "
        f"{run.negations:,} claims (for stance alignment)"
    )
    if run.query_model:
        click.echo(f"query model ready: {run.query_model}")
