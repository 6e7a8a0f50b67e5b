"""``argkb server ...``: the managed local Neo4j."""

from __future__ import annotations

import dataclasses
from typing import Any

import click

from argkb.cli.app import (
    echo_err,
    handle_errors,
    json_option,
    main,
    to_json,
)

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

    report = install(with_plugins=not no_plugins, force=force, echo=echo_err)
    if as_json:
        click.echo(
            to_json(
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
        install(srv.distribution, echo=echo_err)
    srv.config.save()
    result = srv.start()
    if as_json:
        click.echo(to_json(result))
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
        click.echo(to_json(payload))
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
