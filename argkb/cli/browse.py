"""``argkb browse``: Neo4j Browser on the managed server, with argkb's guide."""

from __future__ import annotations

import dataclasses
import os
import sys

import click

from argkb.cli.app import echo_err, handle_errors, json_option, main, to_json
from argkb.cli.neo4j_server import PORT, WARM_UP_OPTION, _managed_server, warm_up_started


def _has_desktop() -> bool:
    """A web browser can be shown (not a text one in this terminal, not over plain SSH)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


@main.command("browse")
@click.option("--http-port", type=PORT, help="HTTP port of Neo4j Browser (default 7474, or saved).")
@click.option(
    "--restart",
    is_flag=True,
    help="Restart the managed Neo4j if it runs without HTTP or without the Browser "
    "(stops it even if another argkb command is using it).",
)
@click.option("--no-open", is_flag=True, help="Print the URL only; do not open a web browser.")
@WARM_UP_OPTION
@json_option
@handle_errors
def browse(
    http_port: int | None, restart: bool, no_open: bool, warm_up: bool, as_json: bool
) -> None:
    """Open Neo4j Browser on the managed Neo4j (HTTP on 127.0.0.1), with argkb's guide.

    Starts the server with HTTP if it is not running (on 7474, or a free port when 7474 is
    taken and none was asked for), prints the URL that opens Browser with the server and user
    filled in (type the password: 'argkb server password'), and opens it when there is a
    desktop. When Browser connects it takes argkb's style (units captioned by their text) and
    plays argkb's guide (docs/guide.md), both served by a small helper process beside Neo4j.
    Neo4j and the helper keep running after the command returns: 'argkb server stop' ends both.
    """
    from argkb.db.browser import ensure_browser

    managed = _managed_server()
    access = ensure_browser(managed, http_port=http_port, restart=restart, echo=echo_err)
    said = None
    if warm_up and access.started:  # the running server's settings: a restart may change ports
        said = warm_up_started(managed.running_config() or managed.config)
    opened = False
    if not no_open and _has_desktop():
        import webbrowser

        opened = webbrowser.open(access.url)
    if as_json:
        click.echo(to_json({**dataclasses.asdict(access), "opened": opened, "warm_up": said}))
        return
    if said:
        echo_err(said)
    click.echo(access.url)
    click.echo(
        f"Sign in as {access.user} with the password that 'argkb server password' prints "
        "(Browser takes no password in its URL; it remembers it in this web browser)."
    )
    if access.guide_url:
        click.echo(
            "On connect Browser takes argkb's style and plays its guide "
            f"(:play {access.guide_url})."
        )
    # what this command leaves running, and how it ends
    helper = f" and argkb's guide server (pid {access.guide_pid})" if access.guide_pid else ""
    click.echo(
        f"Neo4j (pid {access.server_pid}){helper} keep serving Browser after this command; "
        "'argkb server stop' stops them."
    )
