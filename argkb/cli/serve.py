"""``argkb serve``: the HTTP API (docs/serve.md)."""

from __future__ import annotations

import contextlib
import dataclasses

import click

from argkb.cli.app import (
    Connection,
    connection_options,
    echo_err,
    handle_errors,
    main,
    one_blas_thread,
)
from argkb.cli.query import setting_option
from argkb.db.connect import is_loopback
from argkb.query.settings import AlignmentChoice

__all__ = ["is_loopback", "serve_cmd"]


@main.command("serve")
@connection_options
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True)
@click.option(
    "--allow-remote",
    is_flag=True,
    help="Allow a --host other than loopback (the API then answers anyone who reaches it).",
)
@click.option(
    "--token",
    envvar="ARGKB_SERVE_TOKEN",
    help="Require 'Authorization: Bearer TOKEN' on every endpoint [env ARGKB_SERVE_TOKEN].",
)
@click.option(
    "--timeout",
    type=click.FloatRange(0.1, 600.0),
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
    from argkb.serve.app import create_app
    from argkb.serve.app import warm_up as answer_warm_up_queries
    from argkb.serve.protocol import server_config

    target = conn.target()
    # a request must not wait the driver's default 30 s of retries when Neo4j is down: retries,
    # connecting and waiting for a pooled connection are bounded by --timeout as well
    driver = conn._driver = open_driver(
        target,
        max_transaction_retry_time=timeout,
        connection_timeout=timeout,
        connection_acquisition_timeout=timeout,
    )
    embedder = Embedder.for_queries(cache=False)  # one-off texts: no disk cache shared by threads
    echo_err(f"loading the embedding model ({embedder.model_path}) ...")
    _ = embedder.model
    app = create_app(
        driver,
        embedder,
        database=conn.database,
        token=token,
        timeout=timeout,
        settings=dataclasses.replace(DEFAULT, alignment=alignment),
    )
    if warm_up:
        echo_err(answer_warm_up_queries(app))
    echo_err(f"argkb serve on http://{host}:{port} (OpenAPI at /openapi.json; Ctrl-C stops)")
    server = uvicorn.Server(server_config(app, host=host, port=port))
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: uvicorn has shut down already
        server.run()
    if not server.started:
        raise click.ClickException(f"could not listen on {host}:{port} (see the message above)")
