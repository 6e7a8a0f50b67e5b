"""Neo4j Browser on the managed server: make sure it runs with HTTP, the Browser jar and the guide,
and build the URL that opens Browser ready to connect (``argkb browse``).

Browser 5.24 reads the server, the scheme and the user from its ``dbms`` (or ``connectURL``)
parameter and ignores a password there, so the URL fills in everything but the password: the
user types it once (``argkb server password`` prints it) and the web browser remembers it for
this origin. ``preselectAuthMethod=NATIVE`` picks user/password sign-in.
"""

from __future__ import annotations

import dataclasses
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass

from argkb.db.distribution import add_browser, install
from argkb.db.guide_urls import guide_url, post_connect_cmd
from argkb.db.server import MANAGED_USER, LocalServer, ServerConfig, free_port, port_in_use
from argkb.errors import ServerError

DEFAULT_HTTP_PORT = 7474


@dataclass(frozen=True)
class BrowserAccess:
    """How to reach Neo4j Browser on the managed server (what ``argkb browse`` prints)."""

    url: str
    http_port: int
    bolt_port: int
    user: str
    password_file: str
    guide_url: str | None
    started: bool  # False: it was running already
    server_pid: int | None = None  # Neo4j: keeps serving after argkb browse returns
    guide_pid: int | None = None  # the guide server beside it, ends with it
    http_port_chosen: bool = False  # True: 7474 was taken, so argkb chose http_port


def browser_url(*, http_port: int, bolt_port: int, user: str = MANAGED_USER) -> str:
    """The URL that opens Browser with server, scheme and user filled in."""
    return (
        f"http://127.0.0.1:{http_port}/browser/"
        f"?dbms=bolt://{user}@127.0.0.1:{bolt_port}&preselectAuthMethod=NATIVE"
    )


def serves_browser(http_port: int, timeout: float = 10.0) -> bool:
    """Whether Neo4j on ``http_port`` answers ``/browser/`` (it does only with the jar in lib/)."""
    try:
        with urllib.request.urlopen(
            f"http://127.0.0.1:{http_port}/browser/", timeout=timeout
        ) as response:
            return int(response.status) == 200
    except (urllib.error.URLError, OSError):
        return False


def ensure_browser(
    server: LocalServer,
    *,
    http_port: int | None = None,
    restart: bool = False,
    echo: Callable[[str], None] = lambda _msg: None,
) -> BrowserAccess:
    """Start ``server`` with HTTP on 127.0.0.1 (``http_port``, else its saved one, else 7474),
    with the Browser jar and the guide, unless it already runs so.

    A server that runs without HTTP, on another HTTP port, or from before the Browser or the
    guide were installed is not touched unless ``restart`` (it is stopped, even if another
    argkb command is using it, and started again with the same settings and HTTP on): a
    :class:`ServerError` says what to do instead.
    """
    dist = server.distribution
    if not dist.is_installed():
        install(dist, echo=echo)
    add_browser(dist, echo=echo)
    running = server.running_config()
    chosen = False
    if running is None:
        port, chosen = _http_port(http_port or server.config.http_port, echo)
        config = dataclasses.replace(server.config, http_port=port)
    else:
        problem = _why_not_ready(server, running, http_port)
        if problem is None:
            port = running.http_port or DEFAULT_HTTP_PORT  # set: no problem means HTTP is on
            config = running
        elif not restart:
            raise ServerError(
                f"Neo4j already runs at {running.uri} but {problem}: run 'argkb browse --restart' "
                "to restart it with the Browser (this stops it, even if another argkb command "
                "is using it), or 'argkb server stop' first."
            )
        else:
            echo(f"Restarting Neo4j at {running.uri}: it {problem} ...")
            server.stop()
            port, chosen = _http_port(http_port or running.http_port, echo)
            config = dataclasses.replace(running, http_port=port)
    managed = LocalServer(dist, config)
    result = managed.start()
    if not result.already_running:
        config.save()  # as 'argkb server start': settings that started a server are remembered
    guide_port = managed.guide_port()

    return BrowserAccess(
        url=browser_url(http_port=port, bolt_port=config.bolt_port),
        http_port=port,
        bolt_port=config.bolt_port,
        user=MANAGED_USER,
        password_file=str(config.password_file),
        guide_url=guide_url(guide_port) if guide_port else None,
        started=not result.already_running,
        server_pid=result.pid,
        guide_pid=managed.guide_pid(),
        http_port_chosen=chosen,
    )


def _http_port(asked: int | None, echo: Callable[[str], None]) -> tuple[int, bool]:
    """The HTTP port to start with: ``asked`` (given, or saved by an earlier start) as it is,
    else 7474, or a free port when something else holds 7474 (Neo4j Desktop does). Returns the
    port and whether argkb chose it. A taken port that was asked for is refused by
    :meth:`LocalServer.start` with a one-line error that says how to pick another."""
    if asked is not None:
        return asked, False
    if not port_in_use(DEFAULT_HTTP_PORT):
        return DEFAULT_HTTP_PORT, False
    port = free_port()
    echo(
        f"HTTP port {DEFAULT_HTTP_PORT} is taken by another process (Neo4j Desktop uses it): "
        f"Neo4j Browser gets port {port} instead (remembered; --http-port picks another)."
    )
    return port, True


def _why_not_ready(server: LocalServer, running: ServerConfig, http_port: int | None) -> str | None:
    if running.http_port is None:
        return "has HTTP off"
    if http_port is not None and http_port != running.http_port:
        return f"serves HTTP on port {running.http_port}, not {http_port}"
    if not serves_browser(running.http_port):
        return "was started before Neo4j Browser was installed"
    guide_port = server.guide_port()
    if guide_port is None:
        return "was started without argkb's Browser guide"
    if _post_connect_cmd(server) != post_connect_cmd(guide_port):
        return "was started before argkb gave Browser its style"
    return None


def _post_connect_cmd(server: LocalServer) -> str | None:
    """``browser.post_connect_cmd`` in the running server's neo4j.conf (None: not there)."""
    conf = server.config.instance_dir / "conf" / "neo4j.conf"
    try:
        lines = conf.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    key = "browser.post_connect_cmd="
    return next((line[len(key) :] for line in lines if line.startswith(key)), None)
