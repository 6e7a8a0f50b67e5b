"""Lifecycle of the managed local Neo4j: write neo4j.conf, launch, wait for Bolt, stop.

The server is the genuine ``org.neo4j.server.CommunityEntryPoint`` run by Java 17 over the jars
that :mod:`argkb.db.distribution` assembled. Each instance (data, logs, conf, pid file) lives in
its own folder, so tests can run a throw-away instance on a free port beside the user's own.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from string import Template

from argkb.db.distribution import Distribution
from argkb.errors import ServerError
from argkb.paths import cache_root

DEFAULT_BOLT_PORT = 7687
DEFAULT_HEAP = "2g"
DEFAULT_PAGECACHE = "2g"
ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"

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

# Log lines that mean a plugin, not the server, broke the start-up.
_PLUGIN_FAILURE_HINTS = ("GlobalProceduresRegistry", "ProcedureException", "ComponentInjection")


@dataclass(frozen=True)
class ServerConfig:
    """One managed instance: its folder, port and memory."""

    instance_dir: Path
    bolt_port: int = DEFAULT_BOLT_PORT
    heap: str = DEFAULT_HEAP
    pagecache: str = DEFAULT_PAGECACHE
    http_port: int | None = None  # Neo4j Browser over HTTP; off unless asked for

    @classmethod
    def default(cls) -> ServerConfig:
        """The user's managed instance: defaults, then what the last ``argkb server start``
        saved in the instance's ``settings.json``, then ``ARGKB_NEO4J_*`` environment variables."""
        instance_dir = cache_root() / "instances" / "default"
        saved_path = instance_dir / "settings.json"
        saved = json.loads(saved_path.read_text()) if saved_path.is_file() else {}
        env = os.environ
        http = env.get("ARGKB_NEO4J_HTTP_PORT") or saved.get("http_port")
        return cls(
            instance_dir=instance_dir,
            bolt_port=int(env.get("ARGKB_NEO4J_PORT") or saved.get("bolt_port", DEFAULT_BOLT_PORT)),
            heap=env.get("ARGKB_NEO4J_HEAP") or saved.get("heap", DEFAULT_HEAP),
            pagecache=env.get("ARGKB_NEO4J_PAGECACHE") or saved.get("pagecache", DEFAULT_PAGECACHE),
            http_port=int(http) if http else None,
        )

    def save(self) -> None:
        """Remember port and memory for later commands that use this instance."""
        self.instance_dir.mkdir(parents=True, exist_ok=True)
        settings = {
            "bolt_port": self.bolt_port,
            "heap": self.heap,
            "pagecache": self.pagecache,
            "http_port": self.http_port,
        }
        (self.instance_dir / "settings.json").write_text(json.dumps(settings, indent=2))

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def pid_file(self) -> Path:
        return self.instance_dir / "run" / "argkb-neo4j.pid"

    @property
    def log_file(self) -> Path:
        return self.instance_dir / "logs" / "neo4j.log"


@dataclass(frozen=True)
class ServerState:
    running: bool
    pid: int | None
    uri: str
    instance_dir: str
    plugins_disabled_because: str | None = None


@dataclass(frozen=True)
class StartResult:
    pid: int
    uri: str
    seconds: float
    already_running: bool
    plugins_disabled_because: str | None = None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now (for tests)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


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

    # -- state ---------------------------------------------------------------------------------

    def _read_pid(self) -> int | None:
        """The pid of our live server, or None; a stale pid file is removed."""
        path = self.config.pid_file
        if not path.is_file():
            return None
        try:
            pid = int(json.loads(path.read_text())["pid"])
        except (ValueError, KeyError, json.JSONDecodeError):
            path.unlink(missing_ok=True)
            return None
        cmdline = _process_cmdline(pid)
        if ENTRY_POINT in cmdline and str(self.config.instance_dir) in cmdline:
            return pid
        path.unlink(missing_ok=True)  # the process is gone, or the pid now belongs to another
        return None

    def _plugins_disabled_because(self) -> str | None:
        marker = self.config.instance_dir / "run" / "plugins-disabled.txt"
        return marker.read_text() if marker.is_file() else None

    def state(self) -> ServerState:
        pid = self._read_pid()
        return ServerState(
            pid is not None,
            pid,
            self.config.uri,
            str(self.config.instance_dir),
            self._plugins_disabled_because(),
        )

    # -- start ---------------------------------------------------------------------------------

    def write_config(self, with_plugins: bool = True) -> Path:
        cfg = self.config
        names = ("conf", "data", "logs", "run", "import", "no-plugins")
        dirs = {name: cfg.instance_dir / name for name in names}
        for path in dirs.values():
            path.mkdir(parents=True, exist_ok=True)
        template = Template(
            resources.files("argkb.docker").joinpath("neo4j.conf.template").read_text()
        )
        text = template.substitute(
            bolt_port=cfg.bolt_port,
            http_enabled="true" if cfg.http_port else "false",
            http_port=cfg.http_port or 7474,
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
        """Start the server and wait until Bolt answers a query; a no-op if it already runs."""
        started = time.perf_counter()
        pid = self._read_pid()
        if pid is not None:
            return StartResult(pid, self.config.uri, 0.0, True, self._plugins_disabled_because())
        if not self.distribution.is_installed():
            raise ServerError(
                f"Neo4j is not installed at {self.distribution.root}: run 'argkb server install'."
            )
        if _port_open(self.config.bolt_port):
            raise ServerError(
                f"Port {self.config.bolt_port} on 127.0.0.1 is taken by another process: stop it, "
                "or pick another port (--port or ARGKB_NEO4J_PORT), or use it with --uri."
            )
        marker = self.config.instance_dir / "run" / "plugins-disabled.txt"
        marker.unlink(missing_ok=True)
        try:
            pid = self._launch_and_wait(with_plugins=True, timeout=timeout)
            why = None
        except _PluginStartupFailure as failure:
            why = f"the server did not start with its plugins, so they are off: {failure}"
            marker.write_text(why)
            pid = self._launch_and_wait(with_plugins=False, timeout=timeout)
        return StartResult(pid, self.config.uri, time.perf_counter() - started, False, why)

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
        self.config.pid_file.write_text(
            json.dumps({"pid": proc.pid, "port": self.config.bolt_port, "started": time.time()})
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                self.config.pid_file.unlink(missing_ok=True)
                failure = "\n".join(_text_since(path, offset) for path, offset in offsets.items())
                if with_plugins and any(hint in failure for hint in _PLUGIN_FAILURE_HINTS):
                    raise _PluginStartupFailure(_first_error(failure))
                raise ServerError(
                    f"Neo4j exited with code {proc.returncode} during start-up; "
                    f"see {self.config.log_file}:\n{_first_error(failure)}"
                )
            if _port_open(self.config.bolt_port) and self._answers_query():
                return proc.pid
            time.sleep(0.25)
        self._terminate(proc.pid, 30.0)
        raise ServerError(
            f"Neo4j did not answer on {self.config.uri} within {timeout:.0f} s; "
            f"see {self.config.log_file}"
        )

    def _answers_query(self) -> bool:
        from neo4j import GraphDatabase
        from neo4j.exceptions import Neo4jError, ServiceUnavailable, SessionExpired

        try:
            with GraphDatabase.driver(self.config.uri, auth=None) as driver:
                driver.execute_query("RETURN 1")
            return True
        except (ServiceUnavailable, SessionExpired, Neo4jError, OSError):
            return False

    # -- stop ----------------------------------------------------------------------------------

    def stop(self, timeout: float = 90.0) -> bool:
        """SIGTERM the server and wait for it to exit; returns False if it was not running."""
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


class _PluginStartupFailure(Exception):
    """Internal: start-up failed in plugin loading; retried without plugins."""


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
