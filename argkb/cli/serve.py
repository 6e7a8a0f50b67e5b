"""``argkb serve``: the HTTP API (docs/serve.md)."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import socket

import click

from argkb.cli.app import (
    Connection,
    FiniteRange,
    connection_options,
    echo_err,
    handle_errors,
    main,
    not_blank,
    one_blas_thread,
)
from argkb.cli.query import setting_option
from argkb.db.connect import is_loopback
from argkb.query.settings import AlignmentChoice

__all__ = ["is_loopback", "serve_cmd"]

RETRY_SECONDS = 2.0
"""How long the driver retries a request's transaction (a brief blip of Neo4j, not an outage)."""
MEMORY_TEXTS = 50_000
"""Texts whose vectors ``argkb serve`` keeps in memory (384 floats each: about 77 MB at most)."""


def _check_token(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A bearer token a client can send: not blank, printable ASCII without spaces (HTTP
    clients and browsers send header values as Latin-1 at most; a blank one would let
    'Authorization: Bearer ' in)."""
    if value is None:
        if os.environ.get("ARGKB_SERVE_TOKEN") == "":  # click reads an empty variable as unset
            raise click.BadParameter(
                "ARGKB_SERVE_TOKEN is set but empty: give a secret, or unset it to serve "
                "without a token",
                ctx,
                param,
            )
        return None
    not_blank(": give a secret, or leave --token out")(ctx, param, value)
    if not all("!" <= char <= "~" for char in value):
        raise click.BadParameter(
            "may hold only printable ASCII characters without spaces (browsers cannot send "
            "others in a header)",
            ctx,
            param,
        )
    return value


@main.command("serve")
@connection_options
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="Port to listen on (0: a free one, printed at start).",
)
@click.option(
    "--allow-remote",
    is_flag=True,
    help="Allow a --host other than loopback (the API then answers anyone who reaches it).",
)
@click.option(
    "--token",
    envvar="ARGKB_SERVE_TOKEN",
    callback=_check_token,
    help="Require 'Authorization: Bearer TOKEN' on every endpoint [env ARGKB_SERVE_TOKEN].",
)
@click.option(
    "--timeout",
    type=FiniteRange(0.1, 600.0),
    default=10.0,
    show_default=True,
    help="Seconds each database call may take.",
)
@click.option(
    "--warm-up/--no-warm-up",
    default=True,
    show_default=True,
    help="Answer a few queries before listening, so that the first requests after a Neo4j "
    "restart are not slow (seconds more at start).",
)
@setting_option("alignment")
@handle_errors
def serve_cmd(
    conn: Connection,
    host: str,
    port: int,
    allow_remote: bool,
    token: str | None,
    timeout: float,
    warm_up: bool,
    alignment: AlignmentChoice,
) -> None:
    """Serve the query engine and the graph over HTTP (JSON API, OpenAPI at /openapi.json).

    Loads the embedding model once and, unless --no-warm-up, answers a few queries itself to
    warm Neo4j's indexes and query plans; then answers GET /api/v1/query and the browse
    endpoints until stopped with Ctrl-C.
    Listens on 127.0.0.1 unless --allow-remote is given.
    """
    if not is_loopback(host):
        if not allow_remote:
            raise click.UsageError(
                f"--host {host} is not a loopback address: add --allow-remote to listen there"
            )
        echo_err(
            f"Warning: listening on {host}: anyone who can reach this address can query the graph"
            + ("" if token else "; set --token to require a bearer token")
        )
    one_blas_thread()
    import uvicorn

    from argkb.db.connect import open_driver
    from argkb.embed.model import Embedder
    from argkb.query.settings import DEFAULT
    from argkb.serve.app import LOOPBACK_NAMES, create_app
    from argkb.serve.app import warm_up as answer_warm_up_queries
    from argkb.serve.protocol import server_config

    host = host.strip("[]")  # an IPv6 address as in a URL
    sock = _listen(host, port)
    port = sock.getsockname()[1]
    target = conn.target()
    # a request must not wait the driver's default 30 s of retries when Neo4j is down: retries
    # get at most RETRY_SECONDS (a stopped Neo4j answered 503 after 16.9 s with --timeout's 10,
    # after 2.9 s with 2), connecting and waiting for a pooled connection --timeout
    driver = conn._driver = open_driver(
        target,
        max_transaction_retry_time=min(timeout, RETRY_SECONDS),
        connection_timeout=timeout,
        connection_acquisition_timeout=timeout,
    )
    # no disk cache shared by threads: queries are one-off texts, and what key points embed (a
    # topic's sentences) is kept in memory, for the next request of the topic or a retry
    embedder = Embedder.for_queries(cache=False, memory=MEMORY_TEXTS)
    echo_err(f"loading the embedding model ({embedder.model_path}) ...")
    _ = embedder.model
    app = create_app(
        driver,
        embedder,
        database=conn.database,
        token=token,
        timeout=timeout,
        settings=dataclasses.replace(DEFAULT, alignment=alignment),
        # on loopback only the names of this machine: a page on another name that resolves
        # here (DNS rebinding) must not read the API
        hosts=(*LOOPBACK_NAMES, host) if is_loopback(host) else None,
    )
    if warm_up:
        echo_err(answer_warm_up_queries(app))
    shown = f"[{host}]" if ":" in host else host
    guard = "a token required" if token else "no token: anyone who reaches it can read the graph"
    echo_err(f"argkb serve on http://{shown}:{port} ({guard}; OpenAPI at /openapi.json; "
             "Ctrl-C stops)")  # fmt: skip
    server = uvicorn.Server(server_config(app, host=host, port=port))
    # Ctrl-C: uvicorn has shut down already; SystemExit: it could not start (said below)
    with contextlib.suppress(KeyboardInterrupt, SystemExit):
        server.run(sockets=[sock])
    if not server.started:
        raise click.ClickException(f"could not serve on {host}:{port} (see the message above)")


def _listen(host: str, port: int) -> socket.socket:
    """The bound socket, before anything else starts; a one-line error naming the likely cause."""
    import errno

    from argkb.serve.protocol import listening_socket

    try:
        return listening_socket(host, port)
    except OSError as err:
        hint = ("another argkb serve? try another --port" if err.errno == errno.EADDRINUSE
                else "is --host an address of this machine?")  # fmt: skip
        raise click.ClickException(
            f"could not listen on {host}:{port}: {err.strerror or err} ({hint})"
        ) from None
