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

# -- option types ------------------------------------------------------------------------------


class _Checked(click.ParamType):
    """A click type over one of the library's checks (:mod:`argkb.db.server`), so the CLI and
    the saved settings refuse the same values with the same words."""

    def __init__(self, name: str, check: Any) -> None:
        self.name = name
        self._check = check

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from argkb.errors import ConfigError

        try:
            return self._check(value)
        except ConfigError as err:
            self.fail(str(err), param, ctx)


def _port(value: Any) -> int:
    from argkb.db.server import check_port

    return check_port(value)


def _size(value: Any) -> str:
    from argkb.db.server import check_size

    return check_size(value)


PORT = _Checked("port", _port)
SIZE = _Checked("size", _size)

WARM_UP_OPTION = click.option(
    "--warm-up/--no-warm-up",
    default=True,
    show_default=True,
    help="When the server (re)starts, answer a few queries on it before returning, so that the "
    "first 'argkb query' is not slow.",
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
                    "browser": report.browser,
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
    browser = report.browser
    click.echo(
        "  Neo4j Browser: "
        + (
            f"yes ({browser['version']})"
            if browser.get("installed")
            else f"MISSING ({browser.get('why')})"
        )
    )


def _managed_server(**overrides: Any) -> Any:
    """The managed default instance, with the options the user gave (None: not given).

    While it runs, the base is what it runs with, so that only options the user gave can
    differ from it (and :meth:`LocalServer.start` refuses them until it is stopped).
    """
    from argkb.db.distribution import default_distribution
    from argkb.db.server import LocalServer, ServerConfig

    server = LocalServer(default_distribution(), ServerConfig.default())
    config = server.running_config() or server.config
    given = {key: value for key, value in overrides.items() if value is not None}
    return LocalServer(server.distribution, dataclasses.replace(config, **given))


@server.command("start")
@click.option("--port", type=PORT, help="Bolt port (default 7687).")
@click.option("--heap", type=SIZE, help="JVM heap, e.g. 2g (default 2g).")
@click.option("--pagecache", type=SIZE, help="Page cache, e.g. 2g (default 2g).")
@click.option("--http-port", type=PORT, help="Also serve HTTP (Neo4j Browser) on this port.")
@click.option(
    "--allow-url-loading/--block-url-loading",
    default=None,
    help="Let LOAD CSV and APOC's load procedures fetch URLs (blocked by default).",
)
@WARM_UP_OPTION
@json_option
@handle_errors
def server_start(
    port: int | None,
    heap: str | None,
    pagecache: str | None,
    http_port: int | None,
    allow_url_loading: bool | None,
    warm_up: bool,
    as_json: bool,
) -> None:
    """Start the managed Neo4j on 127.0.0.1 (installs it first if needed).

    Options are remembered for later commands once the server has started with them. While it
    runs, options other than its own are refused: 'argkb server stop' first. Auth is on: argkb
    keeps the neo4j user's password in the instance folder ('argkb server password').
    A server it started answers a few queries before the command returns, so that the first
    'argkb query' is not slow (--no-warm-up: return at once).
    """
    from argkb.db.distribution import install

    srv = _managed_server(
        bolt_port=port,
        heap=heap,
        pagecache=pagecache,
        http_port=http_port,
        allow_url_loading=allow_url_loading,
    )
    if not srv.distribution.is_installed():
        install(srv.distribution, echo=echo_err)
    result = srv.start()
    if not result.already_running:
        srv.config.save()  # only settings that started a server are remembered
    if not as_json:
        if result.already_running:
            click.echo(f"Neo4j already running (pid {result.pid}) at {result.uri}")
        else:
            click.echo(
                f"Neo4j started (pid {result.pid}) at {result.uri} in {result.seconds:.1f} s"
            )
        if result.plugins_disabled_because:
            click.echo(f"Warning: {result.plugins_disabled_because}", err=True)
    said = warm_up_started(srv.config) if warm_up and not result.already_running else None
    if as_json:
        click.echo(to_json({**dataclasses.asdict(result), "warm_up": said}))
    elif said:
        echo_err(said)


def warm_up_started(config: Any) -> str:
    """Warm the managed server of ``config``, which just started, up for queries
    (:func:`argkb.query.warmup.warm_up_server`); returns what to tell the user."""
    from argkb.db.connect import managed_target, open_driver
    from argkb.errors import ArgKBError
    from argkb.query.warmup import warm_up_server

    try:
        driver = open_driver(managed_target(config))
    except ArgKBError as err:  # it started, but argkb cannot reach it (yet): not this step's error
        return f"no warm-up, the server runs anyway: {err}"
    with driver:
        return warm_up_server(driver, announce=echo_err)


@server.command("stop")
@handle_errors
def server_stop() -> None:
    """Stop the managed Neo4j and its Browser guide server (SIGTERM, then wait)."""
    srv = _managed_server()
    guide = srv.guide_pid()
    stopped = srv.stop()
    also = f" (and argkb's Browser guide server, pid {guide})" if guide else ""
    click.echo(("Neo4j stopped" if stopped else "Neo4j was not running") + also)


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
        "browser_jar": str(jar) if (jar := srv.distribution.browser_jar()) else None,
        **dataclasses.asdict(state),
    }
    if state.running:
        from argkb.db.connect import managed_target, open_driver
        from argkb.db.schema import server_info

        with open_driver(managed_target(srv.running_config() or srv.config)) as driver:
            payload["loaded_plugins"] = server_info(driver).plugins
    if as_json:
        click.echo(to_json(payload))
        return
    yes_no = {True: "yes", False: "no"}
    click.echo(
        f"installed: {yes_no[payload['installed']]} (Neo4j {payload['neo4j']}, {payload['root']})"
    )
    click.echo(
        f"running:   {yes_no[state.running]}"
        + (f" (pid {state.pid}, {state.uri})" if state.running else "")
    )
    if state.password_file:
        click.echo(f"password:  user neo4j, in {state.password_file} ('argkb server password')")
    else:
        click.echo("password:  none yet (the next 'argkb server start' generates one)")
    if state.settings and state.settings.get("http_port"):
        click.echo(f"http:      http://127.0.0.1:{state.settings['http_port']}/browser/")
        guide_port = srv.guide_port()
        if guide_port:
            from argkb.explore.guide import guide_url

            click.echo(f"guide:     {guide_url(guide_port)} (plays when Browser connects)")
    if state.settings is not None and "allow_url_loading" in state.settings:
        allowed = state.settings["allow_url_loading"]
        click.echo("URL loading: " + ("allowed (--allow-url-loading)" if allowed else "blocked"))
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


@server.command("password")
@handle_errors
def server_password() -> None:
    """Print the neo4j user's password of the managed Neo4j (for Neo4j Browser or cypher-shell).

    argkb's own commands read it themselves; it lives in the instance folder, readable by you only.
    """
    srv = _managed_server()
    auth = srv.config.auth()
    if auth is None:
        raise click.ClickException(
            "the managed Neo4j has no password yet: 'argkb server start' generates one"
        )
    click.echo(auth[1])
