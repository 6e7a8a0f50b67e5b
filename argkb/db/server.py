"""Lifecycle of the managed local Neo4j: write neo4j.conf, launch, wait for Bolt, stop.

The server is the genuine ``org.neo4j.server.CommunityEntryPoint`` run by Java 17 over the jars
that :mod:`argkb.db.distribution` assembled. Each instance (data, logs, conf, pid file) lives in
its own folder, so tests can run a throw-away instance on a free port beside the user's own.

Security defaults (docs/reliability.md): loopback only; authentication on, with a random
password generated for each instance and kept in its folder (``neo4j-password``, mode 0600),
which every argkb command reads through :func:`managed_auth`; URL loading (``LOAD CSV FROM
'http...'``, APOC's load procedures) blocked unless the instance was started with
``allow_url_loading``; the HTTP connector's CORS header names only this server's own origin.

With HTTP on, Neo4j serves Neo4j Browser at ``/browser/`` (its jar is in the distribution) and
argkb serves its Browser guide beside it, on another loopback port chosen at start
(:mod:`argkb.explore.guide`, a small Python process that lives and dies with the server);
``browser.post_connect_cmd`` plays it when Browser connects.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import re
import secrets
import shutil
import signal
import string
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

from argkb.db.distribution import Distribution
from argkb.db.server_config import (  # noqa: F401 (importable from here, as before)
    DEFAULT_BOLT_PORT,
    DEFAULT_HEAP,
    DEFAULT_PAGECACHE,
    MANAGED_USER,
    PASSWORD_FILE,
    ServerConfig,
    ServerState,
    StartResult,
    _port_open,
    check_port,
    check_size,
    free_port,
    http_port_taken,
    managed_auth,
    port_in_use,
)
from argkb.errors import ServerError

ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"
ADMIN_TOOL = "org.neo4j.cli.AdminTool"
GUIDE_MODULE = "argkb.explore.guide"  # the guide server's module (python -m), see its docstring

# Every address blocked for LOAD CSV and APOC's load procedures: both ask Neo4j's URL access
# checker, which refuses hosts in this list (file:// URLs into the import folder still work).
_BLOCK_ALL_ADDRESSES = "0.0.0.0/0,::/0"

# What Neo4j's own launcher passes by default (server.jvm.additional in the stock neo4j.conf).
_JVM_FLAGS = [
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
]

# Neo4j's log line when a connector's port is taken (org.neo4j.configuration.helpers).
_PORT_BIND = re.compile(r"PortBindException: Address [^\s:]+:(?P<port>\d+) is already in use")

# Log lines that mean a plugin, not the server, broke the start-up.
_PLUGIN_FAILURE_HINTS = ("GlobalProceduresRegistry", "ProcedureException", "ComponentInjection")


def _process_cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


class LocalServer:
    """A Neo4j process managed by argkb for one :class:`ServerConfig`."""

    def __init__(self, distribution: Distribution, config: ServerConfig) -> None:
        self.distribution = distribution
        self.config = config
        self._guide_port: int | None = None  # chosen by start() when HTTP is on

    # -- state ---------------------------------------------------------------------------------

    def _read_pid(self) -> int | None:
        """The pid of our live server, or None; a stale pid file is removed."""
        record = self._pid_record()
        return None if record is None else int(record["pid"])

    def _pid_record(self) -> dict[str, Any] | None:
        """Our live server's pid file (pid, port, settings), or None; a stale one is removed."""
        path = self.config.pid_file
        if not path.is_file():
            return None
        try:
            record = json.loads(path.read_text())
            pid = int(record["pid"])
        except (ValueError, KeyError, TypeError, json.JSONDecodeError):
            path.unlink(missing_ok=True)
            return None
        cmdline = _process_cmdline(pid)
        if ENTRY_POINT in cmdline and str(self.config.instance_dir) in cmdline:
            return dict(record)
        path.unlink(missing_ok=True)  # the process is gone, or the pid now belongs to another
        return None

    def running_settings(self) -> dict[str, Any] | None:
        """The settings the running server was started with, or None if it is not running.

        A server started by an argkb older than the pid file's ``settings`` shows its port only.
        """
        record = self._pid_record()
        if record is None:
            return None
        settings = record.get("settings")
        if isinstance(settings, dict):
            return dict(settings)
        return {"bolt_port": record.get("port")}

    def running_config(self) -> ServerConfig | None:
        """This instance's config with the running server's settings in place (None if stopped)."""
        settings = self.running_settings()
        if settings is None:
            return None
        known = {key: value for key, value in settings.items() if key in self.config.settings()}
        return dataclasses.replace(self.config, **known)

    def guide_port(self) -> int | None:
        """The port of the running server's guide (None: stopped, HTTP off, or started by an
        argkb that served no guide)."""
        record = self._pid_record()
        port = None if record is None else record.get("guide_port")
        return port if isinstance(port, int) else None

    def _plugins_disabled_because(self) -> str | None:
        marker = self.config.instance_dir / "run" / "plugins-disabled.txt"
        return marker.read_text() if marker.is_file() else None

    def state(self) -> ServerState:
        record = self._pid_record()
        running = self.running_config() if record is not None else None
        config = running or self.config
        return ServerState(
            record is not None,
            None if record is None else int(record["pid"]),
            config.uri,
            str(self.config.instance_dir),
            self._plugins_disabled_because(),
            str(self.config.password_file) if self.config.password_file.is_file() else None,
            None if running is None else running.settings(),
        )

    # -- start ---------------------------------------------------------------------------------

    def write_config(self, with_plugins: bool = True) -> Path:
        from argkb.db.guide_urls import post_connect_cmd

        cfg = self.config
        names = ("conf", "data", "logs", "run", "import", "no-plugins")
        dirs = {name: cfg.instance_dir / name for name in names}
        for path in dirs.values():
            path.mkdir(parents=True, exist_ok=True)
        template = Template(
            resources.files("argkb.docker").joinpath("neo4j.conf.template").read_text()
        )
        url_loading = (
            "# URL loading allowed: this instance was started with --allow-url-loading"
            if cfg.allow_url_loading
            else f"internal.dbms.cypher_ip_blocklist={_BLOCK_ALL_ADDRESSES}"
        )
        text = template.substitute(
            bolt_port=cfg.bolt_port,
            http_enabled="true" if cfg.http_port else "false",
            http_port=cfg.http_port or 7474,
            http_origin=cfg.http_origin,
            url_loading=url_loading,
            post_connect_cmd=post_connect_cmd(self._guide_port) if self._guide_port else "",
            heap=cfg.heap,
            pagecache=cfg.pagecache,
            data_dir=dirs["data"],
            logs_dir=dirs["logs"],
            plugins_dir=self.distribution.plugins if with_plugins else dirs["no-plugins"],
            run_dir=dirs["run"],
            import_dir=dirs["import"],
        )
        conf = dirs["conf"] / "neo4j.conf"
        conf.write_text(text)
        return conf

    def _command(self, with_plugins: bool) -> list[str]:
        java = shutil.which("java")
        if java is None:
            raise ServerError("Java 17 ('java') is not on PATH; install OpenJDK 17.")
        classpath = [str(self.distribution.lib / "*")]
        if with_plugins and self.distribution.plugin_jars():
            classpath.append(str(self.distribution.plugins / "*"))
        cfg = self.config
        return [
            java,
            f"-Xms{cfg.heap}",
            f"-Xmx{cfg.heap}",
            *_JVM_FLAGS,
            "-cp",
            os.pathsep.join(classpath),
            ENTRY_POINT,
            f"--home-dir={cfg.instance_dir}",
            f"--config-dir={cfg.instance_dir / 'conf'}",
        ]

    def start(self, timeout: float = 180.0) -> StartResult:
        """Start the server and wait until Bolt answers a query.

        A no-op if it already runs with this config's settings; a :class:`ServerError` if it
        runs with other ones (it must be stopped first: nothing is changed on a running server).
        An instance without a password (made before argkb turned auth on) gets one first.
        """
        started = time.perf_counter()
        pid = self._read_pid()
        if pid is not None:
            self._check_same_settings(pid)
            running = self.running_config() or self.config
            guide_port = self.guide_port()
            if running.http_port and guide_port:
                self._start_guide(running.http_port, guide_port, pid)  # if it died meanwhile
            return StartResult(pid, running.uri, 0.0, True, self._plugins_disabled_because())
        if not self.distribution.is_installed():
            raise ServerError(
                f"Neo4j is not installed at {self.distribution.root}: run 'argkb server install'."
            )
        if _port_open(self.config.bolt_port):
            raise ServerError(
                f"Port {self.config.bolt_port} on 127.0.0.1 is taken by another process: stop it, "
                "or pick another port (--port or ARGKB_NEO4J_PORT), or use it with --uri."
            )
        if self.config.http_port and _port_open(self.config.http_port):
            raise ServerError(http_port_taken(self.config.http_port))
        marker = self.config.instance_dir / "run" / "plugins-disabled.txt"
        marker.unlink(missing_ok=True)
        self._guide_port = free_port() if self.config.http_port else None
        self.write_config()  # neo4j-admin reads the data folder from it
        self._ensure_password()
        try:
            pid = self._launch_and_wait(with_plugins=True, timeout=timeout)
            why = None
        except _PluginStartupFailure as failure:
            why = f"the server did not start with its plugins, so they are off: {failure}"
            marker.write_text(why)
            pid = self._launch_and_wait(with_plugins=False, timeout=timeout)
        if self.config.http_port and self._guide_port:
            try:
                self._start_guide(self.config.http_port, self._guide_port, pid)
            except BaseException:
                self.stop()
                raise
        return StartResult(pid, self.config.uri, time.perf_counter() - started, False, why)

    def _check_same_settings(self, pid: int) -> None:
        running = self.running_settings() or {}
        wanted = self.config.settings()
        differ = [
            f"{_LABELS[key]} {_shown(running[key])} (asked: {_shown(wanted[key])})"
            for key in wanted
            if key in running and running[key] != wanted[key]
        ]
        if differ:
            raise ServerError(
                f"Neo4j already runs (pid {pid}) with other settings: {', '.join(differ)}; "
                "run 'argkb server stop' first, then start it with the new ones."
            )

    # -- authentication ------------------------------------------------------------------------

    def _ensure_password(self) -> None:
        """Give the instance a password before the server starts, if it has none yet.

        ``neo4j-admin dbms set-initial-password`` writes ``data/dbms/auth.ini``, which the server
        reads at start-up: a new instance's system database is created with it, and an instance
        made before argkb turned auth on (its ``neo4j`` user still has Neo4j's default password)
        is updated to it. The password reaches the tool through a picocli @-file (the password
        file itself), never on a command line that other users could read in ``ps``.
        """
        cfg = self.config
        auth_ini = cfg.instance_dir / "data" / "dbms" / "auth.ini"
        _keep_private(cfg.password_file)
        if cfg.password_file.is_file() and auth_ini.is_file():
            return
        if not cfg.password_file.is_file():
            _write_secret(cfg.password_file, _new_password())
        cfg.instance_dir.chmod(0o700)  # the graph, its logs and its password: the owner's only
        java = shutil.which("java")
        if java is None:
            raise ServerError("Java 17 ('java') is not on PATH; install OpenJDK 17.")
        cmd = [
            java,
            "-Xmx256m",
            "-cp",
            str(self.distribution.lib / "*"),
            ADMIN_TOOL,
            "dbms",
            "set-initial-password",
            f"@{cfg.password_file}",
        ]
        env = dict(
            os.environ, NEO4J_HOME=str(cfg.instance_dir), NEO4J_CONF=str(cfg.instance_dir / "conf")
        )
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0 or not auth_ini.is_file():
            output = (done.stdout + done.stderr).strip().splitlines()
            raise ServerError(
                f"neo4j-admin could not set the password of {cfg.instance_dir} "
                f"(exit {done.returncode}): {' / '.join(output[-3:])}"
            )
        auth_ini.chmod(0o600)

    def _launch_and_wait(self, *, with_plugins: bool, timeout: float) -> int:
        self.write_config(with_plugins)
        logs = self.config.instance_dir / "logs"
        console_log = logs / "console.log"
        offsets = {
            path: path.stat().st_size if path.exists() else 0
            for path in (self.config.log_file, console_log)
        }
        with console_log.open("ab") as console:
            proc = subprocess.Popen(
                self._command(with_plugins),
                stdout=console,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # outlives the CLI process that started it
            )
        record = {
            "pid": proc.pid,
            "port": self.config.bolt_port,
            "started": time.time(),
            "settings": self.config.settings(),
            "guide_port": self._guide_port,
        }
        self.config.pid_file.write_text(json.dumps(record))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                self.config.pid_file.unlink(missing_ok=True)
                failure = "\n".join(_text_since(path, offset) for path, offset in offsets.items())
                bind = _PORT_BIND.search(failure)
                if bind and int(bind["port"]) == self.config.http_port:
                    # taken between the check in start() and Neo4j's bind: one line, not Java's
                    raise ServerError(http_port_taken(self.config.http_port))
                if with_plugins and any(hint in failure for hint in _PLUGIN_FAILURE_HINTS):
                    raise _PluginStartupFailure(_first_error(failure))
                raise ServerError(
                    f"Neo4j exited with code {proc.returncode} during start-up; "
                    f"see {self.config.log_file}:\n{_first_error(failure)}"
                )
            try:
                if _port_open(self.config.bolt_port) and self._answers_query():
                    return proc.pid
            except _CredentialsRefused as refused:
                self._terminate(proc.pid, 30.0)
                self.config.pid_file.unlink(missing_ok=True)
                raise ServerError(
                    f"Neo4j started but refused the password in {self.config.password_file} "
                    f"({refused}); if you changed the neo4j user's password yourself, write it "
                    "into that file (mode 0600)."
                ) from refused
            time.sleep(0.25)
        self._terminate(proc.pid, 30.0)
        raise ServerError(
            f"Neo4j did not answer on {self.config.uri} within {timeout:.0f} s; "
            f"see {self.config.log_file}"
        )

    def _answers_query(self) -> bool:
        from neo4j import GraphDatabase
        from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable, SessionExpired

        try:
            with GraphDatabase.driver(self.config.uri, auth=self.config.auth()) as driver:
                driver.execute_query("RETURN 1")
            return True
        except AuthError as err:
            raise _CredentialsRefused(err.message or str(err)) from err
        except (ServiceUnavailable, SessionExpired, Neo4jError, OSError):
            return False

    # -- the Browser guide ---------------------------------------------------------------------

    def _guide_pid(self) -> int | None:
        """The pid of this instance's live guide server, or None; a stale pid file is removed."""
        path = self.config.guide_pid_file
        try:
            pid = int(json.loads(path.read_text())["pid"])
        except FileNotFoundError:
            return None
        except (ValueError, KeyError, TypeError, OSError):
            path.unlink(missing_ok=True)
            return None
        cmdline = _process_cmdline(pid)
        if GUIDE_MODULE in cmdline and str(self.config.instance_dir) in cmdline:
            return pid
        path.unlink(missing_ok=True)
        return None

    def _start_guide(
        self, http_port: int, port: int, server_pid: int, timeout: float = 30.0
    ) -> int:
        """Start the guide server on ``port`` unless it runs; wait until it listens. It ends
        by itself when the process ``server_pid`` (this instance's Neo4j) ends."""
        pid = self._guide_pid()
        if pid is not None:
            return pid
        if _port_open(port):
            raise ServerError(
                f"the Browser guide's port {port} on 127.0.0.1 is taken by another process: "
                "restart the server ('argkb server stop', then start it again)"
            )
        log = self.config.instance_dir / "logs" / "guide.log"
        cmd = [
            sys.executable,
            "-m",
            GUIDE_MODULE,
            f"--port={port}",
            f"--http-port={http_port}",
            f"--instance={self.config.instance_dir}",
            f"--server-pid={server_pid}",
        ]
        with log.open("ab") as sink:
            proc = subprocess.Popen(
                cmd,
                stdout=sink,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # lives as long as the server, not the CLI
            )
        self.config.guide_pid_file.write_text(json.dumps({"pid": proc.pid, "port": port}))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                self.config.guide_pid_file.unlink(missing_ok=True)
                tail = _text_since(log, 0).strip().splitlines()[-1:]
                raise ServerError(
                    f"the Browser guide server exited with code {proc.returncode}: "
                    f"{' '.join(tail)} (see {log})"
                )
            if _port_open(port):
                return proc.pid
            time.sleep(0.1)
        self._terminate(proc.pid, 10.0)
        self.config.guide_pid_file.unlink(missing_ok=True)
        raise ServerError(f"the Browser guide server did not listen on port {port}; see {log}")

    def guide_pid(self) -> int | None:
        """The pid of this instance's running guide server (None: none runs)."""
        return self._guide_pid()

    def _stop_guide(self) -> None:
        pid = self._guide_pid()
        if pid is not None:
            self._terminate(pid, 10.0)
        self.config.guide_pid_file.unlink(missing_ok=True)

    # -- stop ----------------------------------------------------------------------------------

    def stop(self, timeout: float = 90.0) -> bool:
        """SIGTERM the server (and its guide) and wait for it to exit; returns False if it was not
        running."""
        self._stop_guide()
        pid = self._read_pid()
        if pid is None:
            return False
        self._terminate(pid, timeout)
        self.config.pid_file.unlink(missing_ok=True)
        return True

    @staticmethod
    def _terminate(pid: int, timeout: float) -> None:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not _alive(pid):
                return
            time.sleep(0.2)
        os.kill(pid, signal.SIGKILL)  # a clean shutdown that hangs this long is a bug to report
        raise ServerError(f"Neo4j (pid {pid}) ignored SIGTERM for {timeout:.0f} s and was killed")


_LABELS = {
    "bolt_port": "port",
    "heap": "heap",
    "pagecache": "page cache",
    "http_port": "HTTP port",
    "allow_url_loading": "URL loading",
}


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "allowed" if value else "blocked"
    return "off" if value is None else str(value)


class _PluginStartupFailure(Exception):
    """Internal: start-up failed in plugin loading; retried without plugins."""


class _CredentialsRefused(Exception):
    """Internal: the server answered but refused the instance's password."""


def _new_password() -> str:
    """32 random letters and digits (about 190 bits; never starts with '-' or '@', which the
    admin tool would read as an option or a file)."""
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(32))


def _keep_private(path: Path) -> None:
    """Make an existing password file the owner's only again (0600), saying so: rewritten by
    hand (docs/reliability.md says how to set another password), it may have been left readable
    by others, and argkb only ever created it private."""
    if path.is_file() and path.stat().st_mode & 0o077:
        path.chmod(0o600)
        logging.getLogger(__name__).warning(
            "%s was readable by other users; it is the owner's only (0600) again", path
        )


def _write_secret(path: Path, text: str) -> None:
    """Create ``path`` with mode 0600 from the start (no moment where others could read it).

    If another argkb process created it a moment ago (two commands starting the server at once),
    its file is kept: both then use the same password."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(fd, "w") as handle:
        handle.write(text + "\n")


def _alive(pid: int) -> bool:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reap it if it is our child
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie has no cmdline; treat it as gone
    return bool(_process_cmdline(pid))


def _text_since(path: Path, offset: int) -> str:
    if not path.exists():
        return ""
    with path.open("rb") as log:
        log.seek(offset)
        return log.read().decode(errors="replace")


def _first_error(log_text: str) -> str:
    marks = ("ERROR", "Caused by", "Exception")
    lines = [line for line in log_text.splitlines() if any(mark in line for mark in marks)]
    return "\n".join(lines[-3:]) if lines else log_text.strip()[-600:]
