"""Which Neo4j a command talks to, and the one place a driver is made.

Resolution order: explicit ``--uri/--user/--password/--database`` (click also fills them from
``NEO4J_URI``, ``NEO4J_USERNAME``, ``NEO4J_PASSWORD``, ``NEO4J_DATABASE``); otherwise the managed
local server, installed and started on demand, with the password argkb generated for it. Library
code never calls this: it takes a driver.

An explicit URI is checked before anything connects: a Bolt scheme, a host, a port; unencrypted
``bolt://`` or ``neo4j://`` to a host other than this machine is refused unless ``insecure``
(the password and the data would cross the network in clear); a remote URI without a password
gets a warning. A URI that names the running managed server gets its password, so that
``--uri bolt://127.0.0.1:7687`` works as the default does.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from argkb.errors import ConfigError, ConnectionFailed

if TYPE_CHECKING:
    import neo4j

    from argkb.db.server import ServerConfig

SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
DEFAULT_PORT = 7687


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

    @property
    def auth(self) -> tuple[str, str] | None:
        """What the driver sends: ``(user, password)``, or None for no authentication."""
        return (self.user or "neo4j", self.password) if self.password is not None else None


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine (``localhost``, 127.0.0.0/8, ``::1``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Address:
    scheme: str
    host: str
    port: int

    @property
    def encrypted(self) -> bool:
        return "+" in self.scheme


def parse_uri(uri: str) -> Address:
    """Scheme, host and port of a Bolt URI; :class:`ConfigError` with what to write otherwise."""
    example = "e.g. bolt://127.0.0.1:7687 or neo4j+s://xxxx.databases.neo4j.io"
    try:
        parts = urlsplit(uri.strip())
        port = parts.port
    except ValueError as err:
        raise ConfigError(f"--uri {uri!r} is not a valid URI ({err}); {example}") from err
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        given = f"scheme {scheme!r}" if scheme else "no scheme"
        raise ConfigError(
            f"--uri {uri!r} has {given}; argkb speaks Bolt: {', '.join(SCHEMES)} ({example})"
        )
    if not parts.hostname:
        raise ConfigError(f"--uri {uri!r} names no host; {example}")
    return Address(scheme, parts.hostname, port or DEFAULT_PORT)


def check_uri(
    uri: str,
    password: str | None,
    *,
    insecure: bool = False,
    echo: Callable[[str], None] = lambda _msg: None,
) -> Address:
    """Refuse what would leak credentials or data; warn about a remote URI without password."""
    address = parse_uri(uri)
    if is_loopback(address.host):
        return address
    if not address.encrypted and not insecure:
        raise ConfigError(
            f"--uri {uri} is unencrypted ({address.scheme}://) to another host: use "
            f"{address.scheme}+s:// (TLS), or add --insecure to send it in clear anyway"
        )
    if password is None:
        echo(f"Warning: no password for {uri}: set --password or NEO4J_PASSWORD")
    return address


def check_database(database: str | None) -> str | None:
    """Refuse Neo4j's administration database: argkb's graph lives in a user database."""
    if database is not None and database.strip().lower() == "system":
        raise ConfigError(
            "--database system is Neo4j's administration database, which holds no graph; "
            "omit --database for the server's default database"
        )
    return database


def managed_target(config: ServerConfig, database: str | None = None) -> Target:
    """The managed server of ``config``, with its generated password
    (:func:`argkb.db.server.managed_auth`)."""
    auth = config.auth()
    user, password = auth if auth is not None else (None, None)
    return Target(config.uri, user, password, database, True)


def resolve_target(
    uri: str | None,
    user: str | None,
    password: str | None,
    database: str | None,
    *,
    insecure: bool = False,
    start_managed: bool = True,
    echo: Callable[[str], None] = lambda _msg: None,
) -> Target:
    """Pick the database a command will use; with no ``uri``, ensure the managed server runs."""
    check_database(database)
    if uri:
        address = check_uri(uri, password, insecure=insecure, echo=echo)
        if password is None and user is None:
            own = _running_managed_at(address)
            if own is not None:
                return Target(uri, own.user, own.password, database, False)
        return Target(uri, user or "neo4j" if password else user, password, database, False)
    from argkb.db.distribution import default_distribution, install
    from argkb.db.server import LocalServer, ServerConfig

    if user is not None or password is not None:  # else a wrong password passes unnoticed
        echo("note: --user / --password (NEO4J_USERNAME / NEO4J_PASSWORD) apply with --uri only; "
             "the managed server signs in with its own (argkb server password)")  # fmt: skip
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
    return managed_target(config, database)


def _running_managed_at(address: Address) -> Target | None:
    """The managed default instance if it runs at ``address`` (this machine, its port)."""
    if not is_loopback(address.host):
        return None
    from argkb.db.distribution import default_distribution
    from argkb.db.server import LocalServer, ServerConfig

    try:
        running = LocalServer(default_distribution(), ServerConfig.default()).running_config()
    except ConfigError:
        return None  # a broken settings file must not break an explicit --uri
    if running is None or running.bolt_port != address.port:
        return None
    return managed_target(running)


def open_driver(target: Target, **config: Any) -> neo4j.Driver:
    """A verified driver for ``target``; raises :class:`ConnectionFailed` with what to do.

    ``config``: further driver settings (e.g. ``max_transaction_retry_time``). A ``database``
    that the server does not have is refused here, with one line, not at the first query.
    """
    from neo4j import GraphDatabase, NotificationDisabledClassification
    from neo4j.exceptions import AuthError, ClientError, ConfigurationError, ServiceUnavailable

    # Silenced server notifications: argkb maps nodes by id() in its round trips (deprecated in
    # Neo4j 5 without replacement), and its queries name labels, types and properties that a
    # fresh database does not have yet (REUSES before any reuse, pagerank before `argkb
    # pagerank`); both would print a warning on every query.
    quiet = [
        NotificationDisabledClassification.DEPRECATION,
        NotificationDisabledClassification.UNRECOGNIZED,
    ]
    try:
        driver = GraphDatabase.driver(
            target.uri, auth=target.auth, notifications_disabled_classifications=quiet, **config
        )
    except (ConfigurationError, ValueError) as err:
        raise ConnectionFailed(f"cannot use {target.uri}: {err}") from err
    try:
        driver.verify_connectivity()
        if target.database is not None:
            driver.execute_query("RETURN 1", database_=target.database)
    except AuthError as err:
        driver.close()
        hint = (
            " (the password argkb keeps for it; see 'argkb server status')"
            if target.managed
            else ""
        )
        raise ConnectionFailed(
            f"Neo4j at {target.uri} refused the credentials{hint}: {err.message}"
        ) from err
    except ClientError as err:
        driver.close()
        if err.code == "Neo.ClientError.Database.DatabaseNotFound":
            raise ConnectionFailed(
                f"Neo4j at {target.uri} has no database {target.database!r}: omit --database "
                "for the server's default, or name one that 'SHOW DATABASES' lists"
            ) from err
        raise ConnectionFailed(f"Neo4j at {target.uri} refused: {err.message}") from err
    except (ServiceUnavailable, OSError, ValueError) as err:
        driver.close()
        hint = "run 'argkb server start'" if target.managed else "check --uri / NEO4J_URI"
        raise ConnectionFailed(
            f"No Neo4j answers at {target.uri} ({unreachable_reason(err)}); {hint}."
        ) from err
    return driver


def unreachable_reason(err: BaseException) -> str:
    """The operating system's reason in a driver's "cannot connect" message ("connection
    refused", "name or service not known"), else the message itself, on one line: the driver
    wraps the reason in its resolver's internals (``ResolvedIPv4Address(...)``)."""
    import re

    said = " ".join(str(err).split())  # the driver's message spans lines
    reasons = re.findall(r"\[Errno -?\d+\] ([^()\[\]]+)", said)
    if reasons:
        return reasons[-1].strip().rstrip(".").lower()
    return said[:300]
