"""Which Neo4j a command talks to, and the one place a driver is made.

Resolution order: explicit ``--uri/--user/--password/--database`` (click also fills them from
``NEO4J_URI``, ``NEO4J_USERNAME``, ``NEO4J_PASSWORD``, ``NEO4J_DATABASE``); otherwise the managed
local server, installed and started on demand. Library code never calls this: it takes a driver.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from argkb.errors import ConnectionFailed

if TYPE_CHECKING:
    import neo4j


@dataclass(frozen=True)
class Target:
    """A resolved database address."""

    uri: str
    user: str | None
    password: str | None
    database: str | None
    managed: bool

    def describe(self) -> str:
        where = "managed local server" if self.managed else "given by --uri / NEO4J_URI"
        return f"{self.uri} ({where}), database {self.database or '<server default>'}"


def resolve_target(
    uri: str | None,
    user: str | None,
    password: str | None,
    database: str | None,
    *,
    start_managed: bool = True,
    echo: Callable[[str], None] = lambda _msg: None,
) -> Target:
    """Pick the database a command will use; with no ``uri``, ensure the managed server runs."""
    if uri:
        return Target(uri, user or "neo4j" if password else user, password, database, False)
    from argkb.db.distribution import default_distribution, install
    from argkb.db.server import LocalServer, ServerConfig

    config = ServerConfig.default()
    distribution = default_distribution()
    if start_managed:
        if not distribution.is_installed():
            echo("No Neo4j given (--uri / NEO4J_URI) and none installed: installing one ...")
            install(distribution, echo=echo)
        server = LocalServer(distribution, config)
        if not server.state().running:
            echo(f"Starting the managed Neo4j on {config.uri} ...")
            server.start()
    return Target(config.uri, None, None, database, True)


def open_driver(target: Target, **config: Any) -> neo4j.Driver:
    """A verified driver for ``target``; raises :class:`ConnectionFailed` with what to do.

    ``config``: further driver settings (e.g. ``max_transaction_retry_time``).
    """
    from neo4j import GraphDatabase, NotificationDisabledClassification
    from neo4j.exceptions import AuthError, ServiceUnavailable

    auth = (target.user or "neo4j", target.password) if target.password is not None else None
    # Silenced server notifications: argkb maps nodes by id() in its round trips (deprecated in
    # Neo4j 5 without replacement), and its queries name labels, types and properties that a
    # fresh database does not have yet (REUSES before any reuse, pagerank before `argkb
    # pagerank`); both would print a warning on every query.
    quiet = [
        NotificationDisabledClassification.DEPRECATION,
        NotificationDisabledClassification.UNRECOGNIZED,
    ]
    driver = GraphDatabase.driver(
        target.uri, auth=auth, notifications_disabled_classifications=quiet, **config
    )
    try:
        driver.verify_connectivity()
    except AuthError as err:
        driver.close()
        raise ConnectionFailed(
            f"Neo4j at {target.uri} refused the credentials: {err.message}"
        ) from err
    except (ServiceUnavailable, OSError, ValueError) as err:
        driver.close()
        hint = "run 'argkb server start'" if target.managed else "check --uri / NEO4J_URI"
        raise ConnectionFailed(f"No Neo4j answers at {target.uri} ({err}); {hint}.") from err
    return driver
