"""The settings of a managed Neo4j instance (:class:`ServerConfig`: folder, ports, memory, URL
loading), their checks, its credentials, and the loopback port helpers; the lifecycle itself is
:mod:`argkb.db.server`, which imports all of these (they are importable from there too)."""

from __future__ import annotations

import json
import os
import re
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argkb.errors import ConfigError, ServerError
from argkb.paths import cache_root

DEFAULT_BOLT_PORT = 7687
DEFAULT_HEAP = "2g"
DEFAULT_PAGECACHE = "2g"
MANAGED_USER = "neo4j"
PASSWORD_FILE = "neo4j-password"  # in the instance folder, readable by its owner only

# Sizes as Neo4j and the JVM both read them: a positive number and a unit (k, m, g, t).
_SIZE = re.compile(r"[1-9][0-9]*[kmgt]")


def check_port(value: object, what: str = "port") -> int:
    """``value`` as a TCP port (1..65535); :class:`ConfigError` naming ``what`` otherwise."""
    try:
        port = int(str(value))
    except ValueError:
        raise ConfigError(f"{what} {value!r} is not a number") from None
    if not 1 <= port <= 65535:
        raise ConfigError(f"{what} {port} is not a TCP port (1..65535)")
    return port


def check_size(value: object, what: str = "size") -> str:
    """``value`` as a memory size Neo4j and the JVM accept (``512m``, ``4g``), lower-cased."""
    text = str(value).strip().lower()
    if not _SIZE.fullmatch(text):
        raise ConfigError(
            f"{what} {value!r} is not a memory size: a whole number and a unit k, m, g or t "
            "(e.g. 512m, 4g)"
        )
    return text


def managed_auth(instance_dir: Path) -> tuple[str, str] | None:
    """``(user, password)`` for the managed instance in ``instance_dir``: the one place a driver
    for a managed server gets its credentials. None for an instance made before argkb turned auth
    on (no password file yet; its server, if running, has auth off); the next
    :meth:`LocalServer.start` gives it a password."""
    path = instance_dir / PASSWORD_FILE
    try:
        password = path.read_text().strip()
    except FileNotFoundError:
        return None
    except OSError as err:
        raise ServerError(f"cannot read the Neo4j password in {path}: {err}") from err
    return (MANAGED_USER, password)


@dataclass(frozen=True)
class ServerConfig:
    """One managed instance: its folder, ports, memory and whether it may load URLs."""

    instance_dir: Path
    bolt_port: int = DEFAULT_BOLT_PORT
    heap: str = DEFAULT_HEAP
    pagecache: str = DEFAULT_PAGECACHE
    http_port: int | None = None  # Neo4j Browser over HTTP; off unless asked for
    allow_url_loading: bool = False  # LOAD CSV / apoc.load.* from URLs; off unless asked for

    def __post_init__(self) -> None:
        # a bad port or size is refused here, before anything is written or started
        object.__setattr__(self, "bolt_port", check_port(self.bolt_port, "Bolt port"))
        object.__setattr__(self, "heap", check_size(self.heap, "heap"))
        object.__setattr__(self, "pagecache", check_size(self.pagecache, "page cache"))
        if self.http_port is not None:
            object.__setattr__(self, "http_port", check_port(self.http_port, "HTTP port"))
            if self.http_port == self.bolt_port:
                raise ConfigError(f"the HTTP port and the Bolt port are both {self.bolt_port}")

    @classmethod
    def default(cls) -> ServerConfig:
        """The user's managed instance: defaults, then what the last successful ``argkb server
        start`` saved in the instance's ``settings.json``, then ``ARGKB_NEO4J_*`` environment
        variables. A bad value in either is a :class:`ConfigError` that names where it came from.
        """
        instance_dir = cache_root() / "instances" / "default"
        saved_path = instance_dir / "settings.json"
        try:
            saved = json.loads(saved_path.read_text()) if saved_path.is_file() else {}
            if not isinstance(saved, dict):
                raise ValueError("not a JSON object")
        except (ValueError, OSError) as err:
            raise ConfigError(
                f"cannot read {saved_path}: {err}; delete it to start afresh"
            ) from err
        env = os.environ
        values: dict[str, Any] = {
            "bolt_port": env.get("ARGKB_NEO4J_PORT") or saved.get("bolt_port", DEFAULT_BOLT_PORT),
            "heap": env.get("ARGKB_NEO4J_HEAP") or saved.get("heap", DEFAULT_HEAP),
            "pagecache": env.get("ARGKB_NEO4J_PAGECACHE")
            or saved.get("pagecache", DEFAULT_PAGECACHE),
            "http_port": env.get("ARGKB_NEO4J_HTTP_PORT") or saved.get("http_port"),
            "allow_url_loading": saved.get("allow_url_loading") is True,
        }
        try:
            return cls(instance_dir=instance_dir, **values)
        except ConfigError as err:
            raise ConfigError(
                f"{err} (from the ARGKB_NEO4J_* environment or {saved_path})"
            ) from err

    def settings(self) -> dict[str, Any]:
        """What ``settings.json`` and the pid file record: everything but the folder."""
        return {
            "bolt_port": self.bolt_port,
            "heap": self.heap,
            "pagecache": self.pagecache,
            "http_port": self.http_port,
            "allow_url_loading": self.allow_url_loading,
        }

    def save(self) -> None:
        """Remember ports, memory and URL loading for later commands that use this instance.
        Call it only after these settings started a server."""
        self.instance_dir.mkdir(parents=True, exist_ok=True)
        (self.instance_dir / "settings.json").write_text(json.dumps(self.settings(), indent=2))

    def auth(self) -> tuple[str, str] | None:
        """This instance's credentials (:func:`managed_auth`)."""
        return managed_auth(self.instance_dir)

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def http_origin(self) -> str:
        """The origin of Neo4j Browser served by this server: the only one CORS lets read."""
        return f"http://127.0.0.1:{self.http_port or 7474}"

    @property
    def password_file(self) -> Path:
        return self.instance_dir / PASSWORD_FILE

    @property
    def pid_file(self) -> Path:
        return self.instance_dir / "run" / "argkb-neo4j.pid"

    @property
    def log_file(self) -> Path:
        return self.instance_dir / "logs" / "neo4j.log"

    @property
    def guide_pid_file(self) -> Path:
        return self.instance_dir / "run" / "argkb-guide.pid"


@dataclass(frozen=True)
class ServerState:
    running: bool
    pid: int | None
    uri: str
    instance_dir: str
    plugins_disabled_because: str | None = None
    password_file: str | None = None  # None: the instance has no password yet (made before auth)
    settings: dict[str, Any] | None = None  # what the running server was started with


@dataclass(frozen=True)
class StartResult:
    pid: int
    uri: str
    seconds: float
    already_running: bool
    plugins_disabled_because: str | None = None


def http_port_taken(port: int) -> str:
    """The one-line error for an HTTP port that another process holds."""
    desktop = " (Neo4j Desktop uses 7474)" if port == 7474 else ""
    return (
        f"HTTP port {port} on 127.0.0.1 is taken by another process{desktop}: pick another "
        "with --http-port PORT (argkb browse, argkb server start) or ARGKB_NEO4J_HTTP_PORT"
    )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now (for tests)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def port_in_use(port: int) -> bool:
    """Whether something listens on 127.0.0.1:``port``."""
    return _port_open(port)


def _port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0
