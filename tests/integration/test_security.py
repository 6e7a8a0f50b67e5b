"""Security defaults of the managed Neo4j on a real server (issue 13): auth on with a generated
password that every argkb command uses, instances made before auth migrated on their next start,
URL loading blocked unless asked for, CORS limited to the server's own origin, and
``argkb server start`` refusing settings that differ from the running server's.

The checks that need no server are in tests/unit/test_security_defaults.py.
"""

from __future__ import annotations

import base64
import functools
import http.server
import json
import os
import stat
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.db.distribution import default_distribution
from argkb.db.server import LocalServer, ServerConfig, free_port

pytestmark = pytest.mark.neo4j

LOAD_CSV = "LOAD CSV FROM $url + '/rows.csv' AS row RETURN count(row) AS n"
APOC_JSON = "CALL apoc.load.json($url + '/doc.json') YIELD value RETURN value.n AS n"


@pytest.fixture(scope="module")
def managed(neo4j_uri: str, argkb_home: Path) -> Iterator[LocalServer]:
    """A managed server with the default settings: the session's own (backend ``local``), else
    a spare one in this module's folder."""
    if os.environ.get("ARGKB_TEST_BACKEND", "local") == "local":
        server = LocalServer(default_distribution(), ServerConfig.default())
        assert server.state().running
        yield server
        return
    config = ServerConfig(argkb_home / "security-default", bolt_port=free_port(), heap="512m")
    server = LocalServer(default_distribution(), config)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    """A tiny HTTP server on 127.0.0.1 with rows.csv and doc.json: ``(base URL, paths asked)``."""
    folder = tmp_path_factory.mktemp("web")
    (folder / "rows.csv").write_text("n\n1\n2\n3\n")
    (folder / "doc.json").write_text('{"n": 42}')
    asked: list[str] = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            asked.append(self.path)

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(folder))
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", asked
    httpd.shutdown()


def _driver(config: ServerConfig, *, anonymous: bool = False) -> Any:
    """A plain driver for ``config``: with its own credentials, or with none."""
    from neo4j import GraphDatabase

    return GraphDatabase.driver(config.uri, auth=None if anonymous else config.auth())


# -- auth --------------------------------------------------------------------------------------


def test_auth_is_on_and_the_password_is_the_owners_only(managed: LocalServer) -> None:
    from neo4j.exceptions import AuthError

    config = managed.config
    mode = stat.S_IMODE(config.password_file.stat().st_mode)
    assert mode == 0o600, oct(mode)
    assert stat.S_IMODE(config.instance_dir.stat().st_mode) == 0o700
    auth = config.auth()
    assert auth is not None and auth[0] == "neo4j" and len(auth[1]) >= 32
    with _driver(config, anonymous=True) as anonymous, pytest.raises(AuthError):
        anonymous.execute_query("RETURN 1")
    with _driver(config) as driver:
        assert driver.execute_query("RETURN 1 AS one").records[0]["one"] == 1
    # the password never appears in the conf or on the server's command line
    assert auth[1] not in (config.instance_dir / "conf" / "neo4j.conf").read_text()
    assert auth[1] not in Path(f"/proc/{managed.state().pid}/cmdline").read_text()


def test_cli_uses_the_password_without_being_told(managed: LocalServer) -> None:
    env = {"NEO4J_URI": None, "NEO4J_PASSWORD": None}
    status = CliRunner().invoke(main, ["status", "--json"], env=env)
    assert status.exit_code == 0, status.output
    assert json.loads(status.stdout)["server"]["edition"] == "community"
    # the managed server named by its URI gets its password too
    named = CliRunner().invoke(main, ["status", "--json", "--uri", managed.config.uri], env=env)
    assert named.exit_code == 0, named.output


def test_server_status_names_the_file_and_password_prints_it(managed: LocalServer) -> None:
    auth = managed.config.auth()
    assert auth is not None
    status = CliRunner().invoke(main, ["server", "status"])
    assert status.exit_code == 0, status.output
    assert str(managed.config.password_file) in status.output
    assert auth[1] not in status.output
    assert "URL loading: blocked" in status.output
    shown = CliRunner().invoke(main, ["server", "password"])
    assert shown.exit_code == 0 and shown.output.strip() == auth[1]


def _start_as_before_auth(config: ServerConfig) -> int:
    """Start ``config`` as argkb did before auth was on: auth disabled in neo4j.conf, no
    password file, a pid file with the pid and port only. Returns the pid."""
    from neo4j import GraphDatabase

    server = LocalServer(default_distribution(), config)
    conf = server.write_config()
    conf.write_text(
        conf.read_text().replace("auth_enabled=true", "auth_enabled=false")
        # the old conf had no URL block list and Neo4j's default CORS
    )
    logs = config.instance_dir / "logs" / "console.log"
    with logs.open("ab") as console:
        proc = subprocess.Popen(
            server._command(True), stdout=console, stderr=subprocess.STDOUT, start_new_session=True
        )
    config.pid_file.write_text(json.dumps({"pid": proc.pid, "port": config.bolt_port}))
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        assert proc.poll() is None, logs.read_text()[-2000:]
        try:
            with GraphDatabase.driver(config.uri, auth=None) as driver:
                driver.execute_query("RETURN 1")
            return proc.pid
        except Exception:
            time.sleep(0.5)
    raise AssertionError("the pre-auth server did not answer")


def test_instance_made_before_auth_keeps_working_and_is_migrated(argkb_home: Path) -> None:
    from neo4j.exceptions import AuthError

    from argkb.db.connect import managed_target, open_driver

    config = ServerConfig(
        argkb_home / "before-auth", bolt_port=free_port(), heap="512m", pagecache="128m"
    )
    server = LocalServer(default_distribution(), config)
    try:
        pid = _start_as_before_auth(config)
        assert not config.password_file.exists()
        # while it runs as before, argkb still reaches it (no password yet: none sent)
        assert server.state().running and server.state().pid == pid
        assert server.running_settings() == {"bolt_port": config.bolt_port}
        with open_driver(managed_target(config)) as driver:
            driver.execute_query("CREATE (:Probe {v: 7})")
        # a start while it runs changes nothing, and says so
        assert server.start().already_running
        server.stop()

        result = server.start()
        assert not result.already_running
        assert stat.S_IMODE(config.password_file.stat().st_mode) == 0o600
        with open_driver(managed_target(config)) as driver:
            assert driver.execute_query("MATCH (p:Probe) RETURN p.v AS v").records[0]["v"] == 7
        with _driver(config, anonymous=True) as anonymous, pytest.raises(AuthError):
            anonymous.execute_query("RETURN 1")
        # and later starts keep the same password
        password = config.password_file.read_text()
        server.stop()
        server.start()
        assert config.password_file.read_text() == password
        with open_driver(managed_target(config)) as driver:
            assert driver.execute_query("MATCH (p:Probe) RETURN count(p) AS n").records[0]["n"] == 1
    finally:
        server.stop()


# -- URL loading -------------------------------------------------------------------------------


@pytest.mark.parametrize("query", [LOAD_CSV, APOC_JSON], ids=["load-csv", "apoc-load-json"])
def test_url_loading_is_blocked_by_default(
    managed: LocalServer, web: tuple[str, list[str]], query: str
) -> None:
    from neo4j.exceptions import ClientError

    url, asked = web
    before = len(asked)
    for host in (url, url.replace("127.0.0.1", "localhost")):
        with _driver(managed.config) as driver, pytest.raises(ClientError, match="blocked"):
            driver.execute_query(query, url=host)
    assert len(asked) == before  # the server never fetched anything


def test_local_file_import_still_works(managed: LocalServer) -> None:
    name = f"argkb-test-{os.getpid()}.csv"
    path = managed.config.instance_dir / "import" / name
    path.write_text("n\n1\n2\n")
    try:
        with _driver(managed.config) as driver:
            query = "LOAD CSV WITH HEADERS FROM $file AS row RETURN count(row) AS n"
            records = driver.execute_query(query, file=f"file:///{name}").records
        assert records[0]["n"] == 2
    finally:
        path.unlink()


@pytest.fixture(scope="module")
def opted_in(argkb_home: Path) -> Iterator[LocalServer]:
    """A spare instance started with HTTP on and URL loading allowed."""
    config = ServerConfig(
        argkb_home / "opted-in",
        bolt_port=free_port(),
        heap="512m",
        pagecache="128m",
        http_port=free_port(),
        allow_url_loading=True,
    )
    server = LocalServer(default_distribution(), config)
    server.start()
    yield server
    server.stop()


def test_url_loading_works_when_asked_for(
    opted_in: LocalServer, web: tuple[str, list[str]]
) -> None:
    url, asked = web
    with _driver(opted_in.config) as driver:
        assert driver.execute_query(LOAD_CSV, url=url).records[0]["n"] == 4  # header row too
        assert driver.execute_query(APOC_JSON, url=url).records[0]["n"] == 42
    assert "/rows.csv" in asked and "/doc.json" in asked


# -- CORS --------------------------------------------------------------------------------------


def _post_from(origin: str, config: ServerConfig) -> tuple[int, str | None]:
    auth = config.auth()
    assert auth is not None
    request = urllib.request.Request(
        f"http://127.0.0.1:{config.http_port}/db/neo4j/tx/commit",
        data=json.dumps({"statements": [{"statement": "RETURN 1"}]}).encode(),
        headers={
            "Origin": origin,
            "Content-Type": "application/json",
            "Authorization": "Basic " + base64.b64encode(":".join(auth).encode()).decode(),
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers.get("Access-Control-Allow-Origin")
    except urllib.error.HTTPError as err:
        return err.code, err.headers.get("Access-Control-Allow-Origin")


def test_cors_allows_only_the_servers_own_origin(opted_in: LocalServer) -> None:
    own = f"http://127.0.0.1:{opted_in.config.http_port}"
    status, allowed = _post_from("http://evil.example", opted_in.config)
    assert status == 200  # the request itself is answered ...
    assert allowed == own  # ... but a browser will not let evil.example read the answer
    assert _post_from(own, opted_in.config) == (200, own)


# -- start validation --------------------------------------------------------------------------


def test_start_with_other_settings_while_running_is_refused_and_not_saved(
    managed: LocalServer,
) -> None:
    settings = managed.config.instance_dir / "settings.json"
    saved = settings.read_text() if settings.exists() else None
    running_port = managed.config.bolt_port
    for args in (["--port", str(free_port())], ["--heap", "3g"], ["--allow-url-loading"]):
        result = CliRunner().invoke(main, ["server", "start", *args])
        assert result.exit_code == 1, result.output
        assert "already runs" in result.output and "argkb server stop" in result.output
        assert "Traceback" not in result.output
    assert CliRunner().invoke(main, ["server", "start", "--port", "70000"]).exit_code == 2
    assert (settings.read_text() if settings.exists() else None) == saved
    same = CliRunner().invoke(main, ["server", "start"])
    assert same.exit_code == 0 and f":{running_port}" in same.output
    assert managed.state().running and managed.state().uri == managed.config.uri


def test_unknown_database_is_one_line(managed: LocalServer) -> None:
    for name in ("nosuchdb", "system"):
        result = CliRunner().invoke(main, ["status", "--database", name], env={"NEO4J_URI": None})
        assert result.exit_code == 1, result.output
        assert result.output.startswith("Error: ") and result.output.count("\n") == 1
        assert name in result.output
