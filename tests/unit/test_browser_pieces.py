"""Neo4j Browser on the managed server, the pieces that need no server (issues 15 and 31):
neo4j.conf's Browser settings, the guide server's answers (the guide as Markdown and as an HTML
guide, and the style), the guide server ending with its Neo4j, a taken HTTP port, the one-click
URL, and adding the Browser jar to a distribution installed without it. On a real server and in
a real browser: tests/integration/test_browser.py."""

from __future__ import annotations

import contextlib
import html
import re
import subprocess
import sys
import threading
import time
import tomllib
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from argkb.db import browser, distribution
from argkb.db.browser import browser_url
from argkb.db.distribution import Distribution, add_browser
from argkb.db.server import _PORT_BIND, LocalServer, ServerConfig, free_port, port_in_use
from argkb.errors import ServerError
from argkb.explore.guide import (
    GRASS_PATH,
    GUIDE_HTML_PATH,
    GUIDE_PATH,
    MODULE,
    GuideServer,
    browser_origins,
    guide_html,
    guide_text,
)
from argkb.explore.style import grass_text

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "docs" / "guide.md"


def _conf(tmp_path: Path, *, http_port: int | None, guide_port: int | None) -> dict[str, str]:
    config = ServerConfig(tmp_path / "instance", bolt_port=17999, http_port=http_port)
    server = LocalServer(Distribution(tmp_path / "neo4j"), config)
    server._guide_port = guide_port  # what start() picks when HTTP is on
    text = server.write_config().read_text()
    pairs = (line.split("=", 1) for line in text.splitlines() if "=" in line and line[0] != "#")
    return {key: value for key, value in pairs}


def test_conf_turns_telemetry_off_and_plays_the_guide_on_connect(tmp_path: Path) -> None:
    conf = _conf(tmp_path, http_port=17474, guide_port=17475)
    assert conf["client.allow_telemetry"] == "false"
    # Browser runs each ';'-separated command on connect: argkb's style, then its guide
    assert conf["browser.post_connect_cmd"] == (
        "style http://127.0.0.1:17475/argkb.grass; play http://127.0.0.1:17475/guide.html"
    )
    # guides from loopback only (Neo4j's default also allows guides.neo4j.com)
    assert conf["browser.remote_content_hostname_whitelist"] == "127.0.0.1,localhost"
    # the security defaults stay as they were
    assert conf["server.http.listen_address"] == "127.0.0.1:17474"
    assert conf["dbms.security.auth_enabled"] == "true"
    assert conf["dbms.security.http_access_control_allow_origin"] == "http://127.0.0.1:17474"
    # Enterprise only: Community refuses to start with it
    assert "browser.allow_outgoing_connections" not in conf


def test_conf_without_http_plays_nothing(tmp_path: Path) -> None:
    conf = _conf(tmp_path, http_port=None, guide_port=None)
    assert conf["server.http.enabled"] == "false"
    assert conf["browser.post_connect_cmd"] == ""


def test_browser_pages_may_connect_to_loopback_only(tmp_path: Path) -> None:
    policy = _conf(tmp_path, http_port=17474, guide_port=17475)[
        "dbms.security.http_static_content_security_policy_header"
    ]
    directives = dict(
        (part.split()[0], part.split()[1:]) for part in policy.split(";") if part.strip()
    )
    assert directives["script-src"] == ["'self'"]
    assert directives["default-src"] == ["'self'"]
    sources = [source for values in directives.values() for source in values]
    hosts = {urllib.parse.urlsplit(s).hostname for s in sources if "://" in s}
    assert hosts == {"127.0.0.1", "localhost"}
    # no bare host names (Neo4j's default names cdn.segment.com, canny.io, fonts.googleapis.com)
    assert [s for s in sources if "." in s and "://" not in s] == []


def test_one_click_url_names_server_user_and_sign_in_method() -> None:
    url = browser_url(http_port=17474, bolt_port=17687)
    parts = urllib.parse.urlsplit(url)
    assert (parts.scheme, parts.hostname, parts.port, parts.path) == (
        "http",
        "127.0.0.1",
        17474,
        "/browser/",
    )
    query = urllib.parse.parse_qs(parts.query)
    assert query == {
        "dbms": ["bolt://neo4j@127.0.0.1:17687"],
        "preselectAuthMethod": ["NATIVE"],
    }


# -- the guide server ----------------------------------------------------------------------------


@pytest.fixture()
def guide() -> Iterator[str]:
    server = GuideServer(0, origins=browser_origins(17474), text=guide_text(), grass=grass_text())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.port}"
    server.shutdown()
    server.server_close()


def _ask(url: str, *, method: str = "GET", origin: str | None = None) -> tuple[int, dict, bytes]:
    headers = {"Origin": origin} if origin else {}
    request = urllib.request.Request(url, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def test_guide_is_served_as_markdown_to_the_browsers_origin(guide: str) -> None:
    status, headers, body = _ask(guide + GUIDE_PATH, origin="http://127.0.0.1:17474")
    assert status == 200
    assert headers["Content-Type"] == "text/markdown; charset=utf-8"
    assert headers["Access-Control-Allow-Origin"] == "http://127.0.0.1:17474"
    assert body == GUIDE.read_bytes()
    _, other, _ = _ask(guide + GUIDE_PATH, origin="http://localhost:17474")
    assert other["Access-Control-Allow-Origin"] == "http://localhost:17474"


def test_guide_is_not_readable_from_other_origins(guide: str) -> None:
    for origin in ("http://evil.example", "http://127.0.0.1:8080", None):
        status, headers, _ = _ask(guide + GUIDE_PATH, origin=origin)
        assert status == 200 and "Access-Control-Allow-Origin" not in headers, origin


def test_guide_answers_the_preflight_of_browsers_fetch(guide: str) -> None:
    status, headers, _ = _ask(guide + GUIDE_PATH, method="OPTIONS", origin="http://127.0.0.1:17474")
    assert status == 204
    assert headers["Access-Control-Allow-Origin"] == "http://127.0.0.1:17474"
    allowed = {h.strip() for h in headers["Access-Control-Allow-Headers"].split(",")}
    assert {"pragma", "cache-control"} <= allowed  # the headers Browser's fetch sends


def test_guide_server_serves_the_html_guide_and_the_style_to_the_browser(guide: str) -> None:
    origin = "http://127.0.0.1:17474"
    status, headers, body = _ask(guide + GUIDE_HTML_PATH, origin=origin)
    assert (status, headers["Content-Type"]) == (200, "text/html; charset=utf-8")
    assert headers["Access-Control-Allow-Origin"] == origin
    assert body.decode() == guide_html(guide_text())
    status, headers, body = _ask(guide + GRASS_PATH, origin=origin)
    assert (status, headers["Content-Type"]) == (200, "text/plain; charset=utf-8")
    assert headers["Access-Control-Allow-Origin"] == origin
    assert body.decode() == grass_text()
    for path in (GUIDE_HTML_PATH, GRASS_PATH):  # Browser's fetch sends a preflight for each
        assert _ask(guide + path, method="OPTIONS", origin=origin)[0] == 204
        assert (
            "Access-Control-Allow-Origin" not in _ask(guide + path, origin="http://evil.example")[1]
        )


def test_html_guide_has_the_slides_and_runnable_blocks_of_the_markdown() -> None:
    """One <slide> per '---' slide, and each ```cypher block a runnable <pre> with the same
    text, as Browser's own HTML guides have them (a click puts it in the editor)."""
    markdown = guide_text()
    page = guide_html(markdown)
    slides = re.findall(r"<slide[^>]*>(.*?)</slide>", page, flags=re.S)
    assert len(slides) == markdown.count("\n---\n") + 1 > 1
    blocks = re.findall(r"```cypher\n(.*?)\n```", markdown, flags=re.S)
    runnable = re.findall(r'<pre class="code runnable">(.*?)</pre>', page, flags=re.S)
    assert [html.unescape(block) for block in runnable] == blocks
    assert "<h1>The argkb argument graph</h1>" in slides[0]
    assert page.startswith("<title>The argkb argument graph</title>")


def test_html_guide_escapes_html_in_the_markdown() -> None:
    page = guide_html(
        "# T\n\n<script>alert(1)</script> and `<b>`\n\n```cypher\nRETURN '<i>'\n```\n"
    )
    assert "<script>" not in page and "<b>" not in page and "<i>" not in page
    assert "&lt;script&gt;" in page and "RETURN '&lt;i&gt;'" in page


def test_style_keeps_every_value_when_browser_parses_it() -> None:
    """Browser's GraSS parser (grassUtils.parseGrassCSS) drops a property whose text holds a
    second ':' and reads a rule's properties up to its closing brace; the style relies on
    neither. The captions argkb promises are there."""
    text = grass_text()
    for rule in re.findall(r"\{((?:[^{}]|\{[^{}]*\})*)\}", text):
        for prop in filter(str.strip, rule.split(";")):
            assert prop.count(":") == 1, prop
    rules = {m[0]: m[1] for m in re.findall(r"([\w.]+)\s*\{((?:[^{}]|\{[^{}]*\})*)\}", text)}
    assert 'caption: "{text}"' in rules["node.Unit"]
    assert 'caption: "{stance} {relevance_avg}"' in rules["node.Argument"]
    sizes = [
        int(re.search(r"diameter: (\d+)px", rules[f"node.ClusterOf{band}"])[1])  # type: ignore[index]
        for band in ("1", "2to4", "5to19", "20to99", "100plus")
    ]
    assert sizes == sorted(sizes) and len(set(sizes)) == 5
    # Browser applies every matching rule in file order, the later winning: a size label's
    # diameter must come after the Cluster rule's
    order = list(rules)
    assert order.index("node.Cluster") < min(
        order.index(f"node.ClusterOf{b}") for b in ("1", "100plus")
    )


def test_guide_server_serves_nothing_else(guide: str) -> None:
    for path in ("/", "/guide.md/../../etc/passwd", "/docs/guide.md", "/neo4j-password"):
        assert _ask(guide + path)[0] == 404, path


def test_guide_ships_in_the_package() -> None:
    assert guide_text() == GUIDE.read_text(encoding="utf-8")
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "guide.md" in config["package-data"]["argkb.explore"]


# -- what argkb browse leaves running ------------------------------------------------------------


def test_guide_server_ends_when_its_neo4j_ends(tmp_path: Path) -> None:
    """``--server-pid``: the guide server stops by itself once that process has gone, however
    it went (here a stand-in process, killed)."""
    stand_in = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    port = free_port()
    guide = subprocess.Popen(
        [sys.executable, "-m", MODULE, f"--port={port}", "--http-port=17474",
         f"--server-pid={stand_in.pid}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not port_in_use(port):
            time.sleep(0.1)
        assert guide.poll() is None  # serving while its server lives
        stand_in.kill()
        stand_in.wait()
        assert guide.wait(timeout=10) == 0, guide.stderr.read() if guide.stderr else ""
    finally:
        for proc in (stand_in, guide):
            if proc.poll() is None:
                proc.kill()
                proc.wait()


@contextlib.contextmanager
def _holding(port: int) -> Iterator[None]:
    """Something else listening on 127.0.0.1:``port`` (as Neo4j Desktop on 7474)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))
        sock.listen()
        yield


def test_taken_http_port_is_one_line_before_java_starts(tmp_path: Path) -> None:
    port = free_port()
    config = ServerConfig(tmp_path / "instance", bolt_port=free_port(), http_port=port)
    server = LocalServer(_installed(tmp_path / "neo4j"), config)
    with _holding(port), pytest.raises(ServerError) as caught:
        server.start()
    message = str(caught.value)
    assert "\n" not in message and f"HTTP port {port} " in message and "--http-port" in message
    assert not config.pid_file.exists()  # nothing was launched


def test_taken_http_port_in_neo4js_log_is_recognised() -> None:
    line = (
        "Caused by: org.neo4j.configuration.helpers.PortBindException: Address 127.0.0.1:17713 "
        "is already in use, cannot bind to it."
    )  # as Neo4j 5.26 logs it
    match = _PORT_BIND.search(line)
    assert match is not None and match["port"] == "17713"


def test_browse_picks_a_free_port_when_7474_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = free_port()
    monkeypatch.setattr(browser, "DEFAULT_HTTP_PORT", taken)
    said: list[str] = []
    with _holding(taken):
        port, chosen = browser._http_port(None, said.append)
    assert chosen and port != taken and len(said) == 1
    assert f"{taken} is taken" in said[0] and f"port {port} instead" in said[0]
    assert "--http-port" in said[0]
    # a port that was asked for (or saved) is kept: start() refuses it if taken
    assert browser._http_port(taken, said.append) == (taken, False) and len(said) == 1


# -- the Browser jar -------------------------------------------------------------------------------


def _installed(root: Path) -> Distribution:
    (root / "lib").mkdir(parents=True)
    (root / "lib" / "org.neo4j.neo4j-5.26.19.jar").write_bytes(b"")
    (root / "manifest.json").write_text("{}")
    return Distribution(root)


def test_add_browser_fetches_the_jar_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, Path, dict[str, str]]] = []

    def fake_maven(pom: Path, output: Path, properties: dict[str, str], log: Path) -> None:
        calls.append((pom.name, output, properties))
        output.mkdir(parents=True, exist_ok=True)
        jar = f"org.neo4j.client.neo4j-browser-{properties['browser.version']}.jar"
        (output / jar).write_bytes(b"jar")

    monkeypatch.setattr(distribution, "_run_maven", fake_maven)
    dist = _installed(tmp_path / "neo4j")
    assert dist.browser_jar() is None
    jar = add_browser(dist)
    assert jar == dist.lib / "org.neo4j.client.neo4j-browser-5.24.0.jar" and jar.read_bytes()
    assert [(pom, props) for pom, _, props in calls] == [
        ("neo4j-browser.pom.xml", {"browser.version": "5.24.0"})
    ]
    # fetched into a staging folder inside the distribution, which is gone afterwards
    assert calls[0][1].parent == dist.root and not calls[0][1].exists()
    assert add_browser(dist) == jar and len(calls) == 1  # present: no second fetch
    assert sorted(p.name for p in dist.root.iterdir()) == ["lib", "manifest.json"]


def test_add_browser_failure_leaves_the_distribution_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing_maven(pom: Path, output: Path, properties: dict[str, str], log: Path) -> None:
        raise ServerError("Maven failed (exit 1) for neo4j-browser.pom.xml")

    monkeypatch.setattr(distribution, "_run_maven", failing_maven)
    dist = _installed(tmp_path / "neo4j")
    with pytest.raises(ServerError, match="Maven failed"):
        add_browser(dist)
    assert dist.browser_jar() is None
    assert sorted(p.name for p in dist.root.iterdir()) == ["lib", "manifest.json"]
    # argkb server install on an installed distribution reports it and does not fail
    report = distribution.install(dist)
    assert report.already_installed and report.browser["installed"] is False
    assert "Maven failed" in str(report.browser["why"])


def test_add_browser_needs_an_installed_server(tmp_path: Path) -> None:
    with pytest.raises(ServerError, match="argkb server install"):
        add_browser(Distribution(tmp_path / "none"))
