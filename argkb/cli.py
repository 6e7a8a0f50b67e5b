"""The ``argkb`` command line: thin click commands over the library.

Each command parses options, calls one library function and prints; library errors
(:class:`argkb.errors.ArgKBError`) become a one-line message and exit code 1. Heavy modules (neo4j,
numpy, torch) are imported inside the commands so that ``argkb --help`` stays instant.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from argkb.errors import ArgKBError

if TYPE_CHECKING:
    import neo4j


def _to_json(value: Any) -> str:
    def default(obj: Any) -> Any:
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            return dataclasses.asdict(obj)
        return str(obj)

    return json.dumps(value, indent=2, default=default)


def _echo_err(message: str) -> None:
    click.echo(message, err=True)


def handle_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn argkb's own errors into a clean ``Error: ...`` line (exit 1) instead of a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ArgKBError as err:
            raise click.ClickException(str(err)) from err

    return wrapper


@dataclasses.dataclass
class Connection:
    """What the connection options resolved to; the driver is opened on first use."""

    uri: str | None
    user: str | None
    password: str | None
    database: str | None
    _driver: Any = None

    def driver(self) -> neo4j.Driver:
        if self._driver is None:
            from argkb.db.connect import open_driver, resolve_target

            target = resolve_target(
                self.uri, self.user, self.password, self.database, echo=_echo_err
            )
            self.database = target.database
            self._driver = open_driver(target)
        return self._driver

    def close(self) -> None:
        if self._driver is not None:
            self._driver.close()


def connection_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``--uri/--user/--password/--database`` (with NEO4J_* env vars) as a ``conn`` argument."""

    @click.option(
        "--uri",
        envvar="NEO4J_URI",
        help="Bolt/neo4j URI [env NEO4J_URI]; default: the managed local server.",
    )
    @click.option(
        "--user", envvar=["NEO4J_USERNAME", "NEO4J_USER"], help="User name [env NEO4J_USERNAME]."
    )
    @click.option("--password", envvar="NEO4J_PASSWORD", help="Password [env NEO4J_PASSWORD].")
    @click.option(
        "--database",
        envvar="NEO4J_DATABASE",
        help="Database name [env NEO4J_DATABASE]; default: the server's.",
    )
    @functools.wraps(fn)
    def wrapper(
        uri: str | None, user: str | None, password: str | None, database: str | None, **kwargs: Any
    ) -> Any:
        conn = Connection(uri, user, password, database)
        try:
            return fn(conn=conn, **kwargs)
        finally:
            conn.close()

    return wrapper


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="argkb")
def main() -> None:
    """argkb: an argument knowledge base on Neo4j.

    Load argument corpora, compute argument PageRank, and ask a claim for ranked,
    deduplicated pro and con premises. Without --uri / NEO4J_URI every command uses the managed
    local Neo4j (installed and started on demand).
    """


# -- server ------------------------------------------------------------------------------------


@main.group()
def server() -> None:
    """Install, start, stop and inspect the managed local Neo4j."""


@server.command("install")
@click.option("--no-plugins", is_flag=True, help="Skip GDS and APOC.")
@click.option("--force", is_flag=True, help="Fetch again even if installed.")
@json_option
@handle_errors
def server_install(no_plugins: bool, force: bool, as_json: bool) -> None:
    """Assemble Neo4j 5.26 Community (+ GDS, APOC core) from Maven Central."""
    from argkb.db.distribution import install

    report = install(with_plugins=not no_plugins, force=force, echo=_echo_err)
    if as_json:
        click.echo(
            _to_json(
                {
                    "root": str(report.distribution.root),
                    "already_installed": report.already_installed,
                    "neo4j": report.neo4j_version,
                    "plugins": report.plugins,
                    "seconds": round(report.seconds, 1),
                }
            )
        )
        return
    state = (
        "already installed" if report.already_installed else f"installed in {report.seconds:.0f} s"
    )
    click.echo(f"Neo4j {report.neo4j_version} {state} at {report.distribution.root}")
    for name, plugin in report.plugins.items():
        click.echo(
            f"  plugin {name}: " + ("yes" if plugin["installed"] else f"MISSING ({plugin['why']})")
        )


def _managed_server(
    port: int | None = None,
    heap: str | None = None,
    pagecache: str | None = None,
    http_port: int | None = None,
) -> Any:
    from argkb.db.distribution import default_distribution
    from argkb.db.server import LocalServer, ServerConfig

    config = ServerConfig.default()
    overrides: dict[str, Any] = {
        key: value
        for key, value in {
            "bolt_port": port,
            "heap": heap,
            "pagecache": pagecache,
            "http_port": http_port,
        }.items()
        if value is not None
    }
    config = dataclasses.replace(config, **overrides)
    return LocalServer(default_distribution(), config)


@server.command("start")
@click.option("--port", type=int, help="Bolt port (default 7687; remembered for later commands).")
@click.option("--heap", help="JVM heap, e.g. 2g.")
@click.option("--pagecache", help="Page cache, e.g. 2g.")
@click.option("--http-port", type=int, help="Also serve Neo4j Browser over HTTP on this port.")
@json_option
@handle_errors
def server_start(
    port: int | None, heap: str | None, pagecache: str | None, http_port: int | None, as_json: bool
) -> None:
    """Start the managed Neo4j on 127.0.0.1 (installs it first if needed)."""
    from argkb.db.distribution import install

    srv = _managed_server(port, heap, pagecache, http_port)
    if not srv.distribution.is_installed():
        install(srv.distribution, echo=_echo_err)
    srv.config.save()
    result = srv.start()
    if as_json:
        click.echo(_to_json(result))
        return
    if result.already_running:
        click.echo(f"Neo4j already running (pid {result.pid}) at {result.uri}")
    else:
        click.echo(f"Neo4j started (pid {result.pid}) at {result.uri} in {result.seconds:.1f} s")
    if result.plugins_disabled_because:
        click.echo(f"Warning: {result.plugins_disabled_because}", err=True)


@server.command("stop")
@handle_errors
def server_stop() -> None:
    """Stop the managed Neo4j (SIGTERM, then wait)."""
    srv = _managed_server()
    click.echo("Neo4j stopped" if srv.stop() else "Neo4j was not running")


@server.command("status")
@json_option
@handle_errors
def server_status(as_json: bool) -> None:
    """Is the managed Neo4j installed and running, and with which plugins?"""
    srv = _managed_server()
    state = srv.state()
    manifest = srv.distribution.manifest()
    payload = {
        "installed": srv.distribution.is_installed(),
        "root": str(srv.distribution.root),
        "neo4j": manifest.get("neo4j"),
        "plugins": manifest.get("plugins", {}),
        **dataclasses.asdict(state),
    }
    if state.running:
        from argkb.db.connect import Target, open_driver
        from argkb.db.schema import server_info

        with open_driver(Target(state.uri, None, None, None, True)) as driver:
            payload["loaded_plugins"] = server_info(driver).plugins
    if as_json:
        click.echo(_to_json(payload))
        return
    click.echo(f"installed: {payload['installed']} (Neo4j {payload['neo4j']}, {payload['root']})")
    click.echo(
        f"running:   {state.running}"
        + (f" (pid {state.pid}, {state.uri})" if state.running else "")
    )
    for name, plugin in payload["plugins"].items():
        loaded = payload.get("loaded_plugins", {}).get(name)
        if loaded:
            click.echo(f"plugin {name}: loaded, version {loaded}")
        elif not plugin.get("installed"):
            click.echo(f"plugin {name}: missing: {plugin.get('why')}")
        elif state.plugins_disabled_because:
            click.echo(f"plugin {name}: installed but off: {state.plugins_disabled_because}")
        else:
            click.echo(f"plugin {name}: installed" + (" but not loaded" if state.running else ""))


# -- database ----------------------------------------------------------------------------------


@main.command("init")
@connection_options
@click.option(
    "--dimensions",
    type=int,
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
        click.echo(_to_json(report))
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
    """Server version, plugins, node/relationship counts, and every index with its state."""
    from argkb.db.schema import constraints, graph_counts, indexes, server_info

    driver = conn.driver()
    info = server_info(driver, conn.database)
    counts = graph_counts(driver, conn.database)
    found_constraints = constraints(driver, conn.database)
    found_indexes = indexes(driver, conn.database)
    if as_json:
        payload = {
            "server": info,
            "counts": counts,
            "constraints": found_constraints,
            "indexes": found_indexes,
        }
        click.echo(_to_json(payload))
        return
    click.echo(f"Neo4j {info.version} {info.edition}")
    for name, version in info.plugins.items():
        click.echo(f"  plugin {name}: {version or 'not loaded'}")
    for title, table in (("nodes", counts["labels"]), ("relationships", counts["relationships"])):
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
    type=click.Choice(["fail", "skip"]),
    default="fail",
    show_default=True,
    help="fail: stop at the first bad record; skip: report bad records, load the rest.",
)
@click.option(
    "--reject-report",
    type=click.Path(dir_okay=False),
    help="Where --on-error skip writes rejected records (JSONL).",
)
@click.option(
    "--batch-size", type=int, default=1000, show_default=True, help="Records per write transaction."
)
@click.option(
    "--max-text",
    type=int,
    default=100_000,
    show_default=True,
    help="Reject units longer than this many characters.",
)
@click.option("--force", is_flag=True, help="Write again even if this content was loaded.")
@click.option("--no-init", is_flag=True, help="Do not create the schema first.")
@json_option
@handle_errors
def load_cmd(
    conn: Connection,
    fmt: str,
    paths: tuple[str, ...],
    on_error: str,
    reject_report: str | None,
    batch_size: int,
    max_text: int,
    force: bool,
    no_init: bool,
    as_json: bool,
) -> None:
    """Load a corpus into Neo4j: FORMAT is one of the loaders, PATHS its files or folders.

    \b
    Formats:
      argsme      args.me corpus: JSON dump or JSONL
      jsonl       generic JSONL, one argument per line (docs/formats.md)
      aif         AIF argument maps: AIFdb or OVA JSON; file, directory or zip
      argkp       IBM ArgKP-2021 directory (arguments, key points, labels)
      argquality  Webis-ArgQuality-20 directory
      argrank     Webis-ArgRank-17 directory (graph + benchmark)

    Loading the same files again changes nothing; a load that was interrupted is completed by
    running it again.
    """
    from pathlib import Path

    from tqdm import tqdm

    from argkb.db.schema import init_schema
    from argkb.ingest import load_records
    from argkb.loaders import reader

    driver = conn.driver()
    if not no_init:
        init_schema(driver, conn.database)
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
            on_error=on_error,  # type: ignore[arg-type]
            batch_size=batch_size,
            max_text=max_text,
            reject_report=Path(reject_report) if reject_report else None,
            force=force,
            progress=bar.update,
        )
    if as_json:
        click.echo(_to_json(summary))
        return
    if summary.already_loaded:
        click.echo(f"{summary.corpus}: already loaded (use --force to write again)")
    click.echo(
        f"corpus {summary.corpus}: {summary.arguments:,} arguments, {summary.units:,} units, "
        f"{summary.reuse_edges:,} reuse edges, {summary.sources:,} sources, "
        f"{summary.links:,} links, {summary.rejected:,} rejected"
    )
    if summary.rejected:
        click.echo(f"rejected records written to {summary.reject_report}; first ones:")
        for line in summary.rejected_examples:
            click.echo(f"  {line}")
    if summary.seconds.get("total"):
        timing = ", ".join(f"{k} {v:.1f}s" for k, v in summary.seconds.items())
        click.echo(f"time: {timing}")


# -- pagerank ----------------------------------------------------------------------------------


@main.command("pagerank")
@connection_options
@click.option(
    "--alpha",
    type=float,
    default=0.85,
    show_default=True,
    help="Weight of the recursive summand (damping).",
)
@click.option(
    "--tol",
    type=float,
    default=1e-10,
    show_default=True,
    help="L1 tolerance between iterates (independent of graph size).",
)
@click.option("--max-iter", type=int, default=200, show_default=True)
@click.option(
    "--reuse",
    type=click.Choice(["exact", "semantic"]),
    default="exact",
    show_default=True,
    help="semantic: merge units joined by SAME_AS edges.",
)
@click.option(
    "--variant",
    type=click.Choice(["adapted", "classic"]),
    default="adapted",
    show_default=True,
    help="adapted: EACL 2017 argument PageRank; classic: textbook.",
)
@click.option("--warm", is_flag=True, help="Start from the stored scores (warm start).")
@click.option("--top", type=int, default=10, show_default=True, help="Show this many units.")
@json_option
@handle_errors
def pagerank_cmd(
    conn: Connection,
    alpha: float,
    tol: float,
    max_iter: int,
    reuse: str,
    variant: str,
    warm: bool,
    top: int,
    as_json: bool,
) -> None:
    """Compute argument PageRank (Wachsmuth et al., EACL 2017) and write it back.

    Writes Unit.pagerank and Argument.relevance_{min,avg,max,sum}.
    """
    from argkb.rank.store import run_pagerank, top_units

    driver = conn.driver()
    run = run_pagerank(
        driver,
        conn.database,
        alpha=alpha,
        tol=tol,
        max_iter=max_iter,
        reuse=reuse,  # type: ignore[arg-type]  # click.Choice guarantees the literal
        variant=variant,  # type: ignore[arg-type]
        warm=warm,
        echo=lambda m: None if as_json else _echo_err(m),
    )
    best = top_units(driver, conn.database, top)
    if as_json:
        click.echo(_to_json({"run": run, "top": best}))
        return
    click.echo(
        f"{run.variant} PageRank ({run.reuse} reuse, alpha {run.alpha}): {run.units:,} units, "
        f"{run.arguments:,} arguments, {run.iterations} iterations, residual {run.residual:.2e}"
    )
    click.echo("seconds: " + ", ".join(f"{k} {v:.2f}" for k, v in run.seconds.items()))
    click.echo(f"top {len(best)} units:")
    for row in best:
        click.echo(
            f"  {row['pagerank']:.5f}  reused {row['used_as_premise']:>3}x  {row['text'][:90]}"
        )


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
    type=click.Choice(["truncate", "window", "sentences"]),
    default="truncate",
    show_default=True,
    help="How texts longer than the model are embedded.",
)
@click.option("--all", "all_units", is_flag=True, help="Re-embed units that have a vector.")
@click.option("--device", help="cpu, cuda, ... (default: a GPU when present).")
@json_option
@handle_errors
def embed_cmd(
    conn: Connection,
    model_path: str | None,
    long_text: str,
    all_units: bool,
    device: str | None,
    as_json: bool,
) -> None:
    """Embed unit texts (cached by text hash) and store vectors for the vector indexes."""
    from tqdm import tqdm

    from argkb.db.schema import init_schema
    from argkb.embed.model import Embedder
    from argkb.embed.store import count_pending, embed_units

    driver = conn.driver()
    embedder = Embedder(model_path, long_text=long_text, device=device)  # type: ignore[arg-type]
    init_schema(driver, conn.database, dimensions=embedder.dimensions)
    total = count_pending(driver, conn.database, all_units=all_units)
    with tqdm(total=total, unit=" units", desc="embed", disable=as_json, file=sys.stderr) as bar:
        run = embed_units(driver, embedder, conn.database, all_units=all_units, progress=bar.update)
    if as_json:
        click.echo(_to_json(run))
        return
    rate = run.units / run.seconds if run.seconds else 0.0
    click.echo(
        f"embedded {run.units:,} units with {run.model} on {run.device} "
        f"in {run.seconds:.1f} s ({rate:,.0f} units/s)"
    )


if __name__ == "__main__":
    main()
