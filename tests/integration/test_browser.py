"""Neo4j Browser on a managed server (issues 15 and 31): ``argkb browse`` starts a private
instance with HTTP and auth on (on a free port when the default one is taken), the Browser jar
is served at /browser/, the guide and the style beside it, and in Debian's chromium
(playwright) the one-click URL connects, Browser takes argkb's style (nodes captioned by unit
text, argument stance and relevance; clusters drawn by their size) and plays argkb's guide in
legible text, and two library queries show the fixture graph's rows and nodes. What keeps
running after ``argkb browse`` says so, and ``argkb server stop`` ends it. ARGKB_SCREENSHOTS=1
saves the screenshots to docs/images/ (browse-*.png, shown in docs/browse.md).

The pieces that need no server: tests/unit/test_browser_pieces.py.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.db import browser as browser_module
from argkb.db.distribution import add_browser, default_distribution
from argkb.db.server import LocalServer, ServerConfig, _alive, free_port
from argkb.explore import library
from argkb.explore.guide import GRASS_PATH, GUIDE_HTML_PATH, guide_html
from argkb.explore.style import grass_text

pytestmark = pytest.mark.neo4j
REPO = Path(__file__).resolve().parents[2]
GRAPH = REPO / "tests" / "fixtures" / "browse" / "graph.cypher"
GUIDE = REPO / "docs" / "guide.md"


@pytest.fixture(scope="module")
def home(
    argkb_home: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, str | None]]:
    """A private ARGKB_HOME (the environment of its ``argkb`` commands) whose default instance
    is not the session's: ``argkb browse`` starts it with HTTP, auth on, on free ports."""
    real = default_distribution()
    add_browser(real)  # the user's distribution, if installed before argkb shipped the Browser
    private = tmp_path_factory.mktemp("browser-home")
    (private / real.root.name).symlink_to(real.root.resolve(), target_is_directory=True)
    env: dict[str, str | None] = {
        "ARGKB_HOME": str(private),
        "ARGKB_NEO4J_PORT": str(free_port()),
        "ARGKB_NEO4J_HTTP_PORT": None,
        "ARGKB_NEO4J_HEAP": "512m",
        "ARGKB_NEO4J_PAGECACHE": "128m",
        "NEO4J_URI": None,
        "NEO4J_PASSWORD": None,
    }
    yield env
    config = ServerConfig(
        private / "instances" / "default", bolt_port=int(str(env["ARGKB_NEO4J_PORT"]))
    )
    LocalServer(real, config).stop()


@contextlib.contextmanager
def _holding(port: int) -> Iterator[None]:
    """Another process's server on 127.0.0.1:``port`` (as Neo4j Desktop's on 7474)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))
        sock.listen()
        yield


@pytest.fixture(scope="module")
def taken() -> int:
    """The port that stands for 7474, held by another process while argkb browse starts."""
    return free_port()


@pytest.fixture(scope="module")
def access(home: dict[str, str | None], taken: int) -> dict[str, Any]:
    """``argkb browse --no-open --json`` with no port asked for, while the default one is taken:
    argkb picks a free port and says which."""
    with pytest.MonkeyPatch.context() as patch, _holding(taken):
        patch.setattr(browser_module, "DEFAULT_HTTP_PORT", taken)
        result = CliRunner().invoke(main, ["browse", "--no-open", "--json"], env=home)
    assert result.exit_code == 0, result.output
    found = dict(json.loads(result.stdout))
    found["said"] = result.stderr
    return found


@pytest.fixture(scope="module")
def server(home: dict[str, str | None], access: dict[str, Any]) -> LocalServer:
    instance = Path(str(home["ARGKB_HOME"])) / "instances" / "default"
    config = ServerConfig(instance, bolt_port=access["bolt_port"], http_port=access["http_port"])
    return LocalServer(default_distribution(), config)


@pytest.fixture(scope="module")
def graph(server: LocalServer) -> LocalServer:
    from neo4j import GraphDatabase

    with GraphDatabase.driver(server.config.uri, auth=server.config.auth()) as driver:
        driver.execute_query("MATCH (n) DETACH DELETE n")
        driver.execute_query(GRAPH.read_text(encoding="utf-8"))
    return server


def _get(url: str, origin: str | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Origin": origin} if origin else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


# -- argkb browse ---------------------------------------------------------------------------------


def test_browse_on_a_taken_http_port_is_one_line_that_says_how_to_pick_another(
    home: dict[str, str | None],
) -> None:
    """Neo4j is not running yet; the asked port is held by another process: no Java start, no
    PortBindException, one line naming the port and the option."""
    port = free_port()
    with _holding(port):
        result = CliRunner().invoke(
            main, ["browse", "--no-open", "--http-port", str(port)], env=home
        )
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
    assert f"HTTP port {port} " in result.output and "--http-port" in result.output
    assert "Exception" not in result.output


def test_browse_picks_a_free_port_when_the_default_is_taken(
    access: dict[str, Any], taken: int
) -> None:
    assert access["http_port_chosen"] is True and access["http_port"] != taken
    assert f"HTTP port {taken} is taken" in access["said"]
    assert f"Neo4j Browser gets port {access['http_port']} instead" in access["said"]


def test_browse_json_gives_the_one_click_url(access: dict[str, Any], server: LocalServer) -> None:
    url = urllib.parse.urlsplit(access["url"])
    assert (url.scheme, url.hostname, url.port, url.path) == (
        "http",
        "127.0.0.1",
        access["http_port"],
        "/browser/",
    )
    assert urllib.parse.parse_qs(url.query) == {
        "dbms": [f"bolt://neo4j@127.0.0.1:{access['bolt_port']}"],
        "preselectAuthMethod": ["NATIVE"],
    }
    assert access["user"] == "neo4j" and access["started"] is True and access["opened"] is False
    assert access["password_file"] == str(server.config.password_file)
    auth = server.config.auth()
    assert auth is not None and auth[1] not in json.dumps(access)  # never printed
    assert server.state().running


def test_browse_again_reuses_the_server_and_plain_output_says_how_to_sign_in(
    home: dict[str, str | None], access: dict[str, Any]
) -> None:
    again = CliRunner().invoke(main, ["browse", "--no-open", "--json"], env=home)
    assert again.exit_code == 0, again.output
    # the port chosen the first time was remembered: nothing is chosen again; the server it
    # started then, on an empty graph, was not asked warm-up queries, and a running one is not
    assert access["warm_up"] == "no warm-up: nothing in the graph is embedded yet"
    seen = json.loads(again.stdout)
    assert seen["warm_up"] is None
    assert seen | {"started": True, "http_port_chosen": True, "warm_up": access["warm_up"]} == {
        key: value for key, value in access.items() if key != "said"
    }
    plain = CliRunner().invoke(main, ["browse", "--no-open"], env=home)
    assert plain.exit_code == 0, plain.output
    lines = plain.stdout.splitlines()
    assert lines[0] == access["url"]
    assert "argkb server password" in plain.stdout and access["guide_url"] in plain.stdout
    # what keeps running after the command returns, and how it ends
    assert lines[-1] == (
        f"Neo4j (pid {access['server_pid']}) and argkb's guide server (pid {access['guide_pid']})"
        " keep serving Browser after this command; 'argkb server stop' stops them."
    )


def test_browse_on_another_http_port_while_running_is_one_line(home: dict[str, str | None]) -> None:
    other = CliRunner().invoke(
        main, ["browse", "--no-open", "--http-port", str(free_port())], env=home
    )
    assert other.exit_code == 1
    assert other.output.startswith("Error: ") and other.output.count("\n") == 1, other.output
    assert "--restart" in other.output


@pytest.mark.skipif(
    os.environ.get("ARGKB_TEST_BACKEND", "local") != "local",
    reason="the Docker and URI backends run no managed server in the session's ARGKB_HOME",
)
def test_browse_when_the_server_runs_without_http_says_how_to_restart(neo4j_uri: str) -> None:
    """The session's server runs with HTTP off: argkb browse leaves it alone and says what to do."""
    pid = LocalServer(default_distribution(), ServerConfig.default()).state().pid
    env = {"NEO4J_URI": None, "ARGKB_NEO4J_HTTP_PORT": None}
    result = CliRunner().invoke(main, ["browse", "--no-open"], env=env)
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
    assert "HTTP off" in result.output and "argkb browse --restart" in result.output
    assert LocalServer(default_distribution(), ServerConfig.default()).state().pid == pid


# -- what the server serves ----------------------------------------------------------------------


def test_browser_is_served_with_a_loopback_only_policy(access: dict[str, Any]) -> None:
    assert default_distribution().browser_jar() is not None
    status, headers, body = _get(f"http://127.0.0.1:{access['http_port']}/browser/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b"Neo4j Browser" in body
    policy = headers["Content-Security-Policy"]
    assert "segment" not in policy and "canny" not in policy and "googleapis" not in policy


def test_guide_and_style_are_served_beside_the_server(access: dict[str, Any]) -> None:
    origin = f"http://127.0.0.1:{access['http_port']}"
    assert access["guide_url"].endswith(GUIDE_HTML_PATH)
    status, headers, body = _get(access["guide_url"], origin=origin)
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Access-Control-Allow-Origin"] == origin
    assert body.decode() == guide_html(GUIDE.read_text(encoding="utf-8"))
    status, headers, body = _get(_grass_url(access), origin=origin)
    assert status == 200 and body.decode() == grass_text()
    assert headers["Access-Control-Allow-Origin"] == origin


def _grass_url(access: dict[str, Any]) -> str:
    return access["guide_url"].removesuffix(GUIDE_HTML_PATH) + GRASS_PATH


def test_browser_settings_reach_the_browser(server: LocalServer, access: dict[str, Any]) -> None:
    """What Browser reads after it connects: dbms.clientConfig()."""
    from neo4j import GraphDatabase

    with GraphDatabase.driver(server.config.uri, auth=server.config.auth()) as driver:
        records = driver.execute_query("CALL dbms.clientConfig()", database_="system").records
    settings = {record["name"]: record["value"] for record in records}
    assert settings["browser.post_connect_cmd"] == (
        f"style {_grass_url(access)}; play {access['guide_url']}"
    )
    assert settings["client.allow_telemetry"] == "false"
    assert settings["browser.remote_content_hostname_whitelist"] == "127.0.0.1,localhost"
    assert settings["dbms.security.auth_enabled"] == "true"


# -- in a real browser ---------------------------------------------------------------------------


def _first_heading(markdown: str) -> str:
    return next(line[2:].strip() for line in markdown.splitlines() if line.startswith("# "))


def test_browser_connects_runs_library_queries_and_plays_the_guide(
    graph: LocalServer, access: dict[str, Any], tmp_path: Path
) -> None:
    # `make test` installs Debian's chromium and playwright: a missing one is a failure
    chromium = shutil.which("chromium")
    assert chromium is not None, "needs Debian's chromium: make chromium (apt-get install)"
    import playwright.sync_api as playwright

    auth = graph.config.auth()
    assert auth is not None
    outside: list[str] = []  # answers from anywhere but this machine
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.on(
            "response",
            lambda r: (
                None
                if urllib.parse.urlsplit(r.url).hostname in ("127.0.0.1", "localhost")
                or r.url.startswith("data:")
                else outside.append(r.url)
            ),
        )
        try:
            page.goto(access["url"])
            # the URL filled in the server and the user; the password is typed
            assert page.input_value("[data-testid=boltaddress]") == (
                f"127.0.0.1:{access['bolt_port']}"
            )
            assert page.input_value("[data-testid=username]") == "neo4j"
            page.fill("[data-testid=password]", auth[1])
            page.click("[data-testid=connect]")
            page.wait_for_selector("text=You are connected as user neo4j", timeout=90_000)

            # on connect (browser.post_connect_cmd) Browser took argkb's style ...
            style = page.locator("[data-testid=frame]", has_text=f":style {_grass_url(access)}")
            style.get_by_text("node.Unit").first.wait_for(timeout=60_000)
            # ... and plays the guide: its first slide
            guide = page.locator("[data-testid=frame]", has_text=f":play {access['guide_url']}")
            guide.wait_for(timeout=60_000)
            title = guide.locator("h1").first
            assert title.inner_text().strip() == _first_heading(GUIDE.read_text())
            slides = GUIDE.read_text().count("\n---\n") + 1
            assert guide.get_by_text(f"1 / {slides}").count() == 1
            title.wait_for(state="visible")
            page.wait_for_timeout(1000)  # the slide fades in
            # legible: the text's contrast with what it is drawn on, as WCAG computes it
            for element in (title, guide.locator("p").first):
                assert _contrast(element) >= 4.5, element.inner_text()[:40]
            page.screenshot(path=str(tmp_path / "browse-guide.png"))
            # a grey block goes into the editor when clicked
            guide.locator("pre.runnable").first.click()
            editor = page.locator("[data-testid=activeEditor] .view-lines")
            assert "CALL db.labels() YIELD label" in editor.inner_text().replace("\u00a0", " ")
            page.click("[data-testid=editor-Run]")  # run it: its table is read below

            _param(page, "claim => 'ban cars'")
            _run(page, library.get("claim_arguments").text)
            frame = page.locator("[data-testid=frame]", has_text="A claim with its pro and con")
            # c1, its 4 arguments and their 4 premises, and the undercut a13 of a1 with its
            # premise p15 (tests/fixtures/browse/graph.cypher); Browser 5.24's summary line says
            # 11 relationships where its type chips count 10 (4 CONCLUDES, 5 PREMISE_OF, 1
            # UNDERCUTS), as measured on 2026-11-28
            frame.get_by_text("Displaying 11 nodes, 11 relationships").wait_for(timeout=60_000)
            for label, count in (("Argument", 5), ("Claim", 2), ("Premise", 5)):
                chip = frame.locator(f"[data-testid=property-details-overview-node-label-{label}]")
                assert chip.inner_text().strip() == f"{label} ({count})"
            drawn = frame.locator("svg g.layer.nodes g.node")  # drawn, not only counted
            drawn.nth(10).wait_for(timeout=30_000)
            assert drawn.count() == 11
            captions = _captions(frame)
            # units by their text (not their key), arguments by stance and relevance
            assert "Cities should ban cars" in captions and "Cars pollute the air" in captions
            assert not {"c1", "c2", "p3", "p5", "p14", "p15"} & set(captions), captions
            arguments = sorted(c for c in captions if c.split(" ")[0] in ("pro", "con"))
            # the undercut has no relevance (argkb pagerank gives none to an undercut)
            assert arguments == ["con", "con 0.03", "con 0.1", "pro 0.05", "pro 0.2"], captions
            page.wait_for_timeout(1500)  # let the layout settle for the picture
            page.screenshot(path=str(tmp_path / "browse-graph.png"))

            # clusters are drawn by their number of members
            _param(page, "unit => 'c2'")
            _run(page, library.get("unit_cluster").text)
            frame = page.locator("[data-testid=frame]", has_text="The clusters of a unit")
            frame.get_by_text("Displaying 4 nodes, 3 relationships").wait_for(timeout=60_000)
            # captions "{kind} \u00d7{size}"; on a loaded machine the nodes are drawn a moment
            # after the frame's summary line
            radii = _radii_when_drawn(page, frame, {"premise \u00d72", "claim \u00d71"})
            assert radii["premise \u00d72"] > radii["claim \u00d71"], radii

            table = _ascii_rows(page, "CALL db.labels() YIELD label")
            assert table[("label", "Unit")] == "15" and table[("label", "Claim")] == "5"
            assert table[("relationship", "PREMISE_OF")] == "13"
            assert table[("corpus complete", "browse fixture")] == "15"
        finally:
            browser.close()
    assert outside == []
    if os.environ.get("ARGKB_SCREENSHOTS"):
        (REPO / "docs" / "images").mkdir(exist_ok=True)
        for shot in tmp_path.glob("browse-*.png"):
            shutil.copy(shot, REPO / "docs" / "images" / shot.name)


def _captions(frame: Any) -> list[str]:
    """Each drawn node's caption, its lines joined by spaces (Browser wraps it in the circle)."""
    texts = frame.locator("svg g.layer.nodes g.node").evaluate_all(
        "nodes => nodes.map(n => [...n.querySelectorAll('text')].map(t => t.textContent.trim())"
        ".join(' '))"
    )
    return [" ".join(text.split()) for text in texts]


def _radii(frame: Any) -> dict[str, float]:
    """Caption -> radius of each drawn node."""
    pairs = frame.locator("svg g.layer.nodes g.node").evaluate_all(
        "nodes => nodes.map(n => [[...n.querySelectorAll('text')].map(t => t.textContent.trim())"
        ".join(' '), Number(n.querySelector('circle').getAttribute('r'))])"
    )
    return {" ".join(text.split()): r for text, r in pairs}


def _radii_when_drawn(page: Any, frame: Any, captions: set[str]) -> dict[str, float]:
    """:func:`_radii` once every caption in ``captions`` is drawn (at most 30 s)."""
    radii = _radii(frame)
    for _ in range(120):
        if captions <= set(radii):
            break
        page.wait_for_timeout(250)
        radii = _radii(frame)
    return radii


def _contrast(element: Any) -> float:
    """WCAG 2 contrast ratio of ``element``'s text colour against the first opaque background
    behind it."""
    return float(
        element.evaluate(
            """el => {
              const rgb = s => s.match(/[\\d.]+/g).map(Number);
              const lum = ([r, g, b]) => {
                const f = c => {
                  c /= 255;
                  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
                };
                return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
              };
              let back = el;
              const clear = e => rgb(getComputedStyle(e).backgroundColor)[3] === 0;
              while (back && clear(back)) back = back.parentElement;
              const fg = lum(rgb(getComputedStyle(el).color));
              const bg = back ? lum(rgb(getComputedStyle(back).backgroundColor)) : 1;
              return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
            }"""
        )
    )


def _param(page: Any, assignment: str) -> None:
    """``:param NAME => VALUE``, waited for: Browser sets a parameter asynchronously, and a
    query run before it is set fails with ParameterMissing."""
    _run(page, f":param {assignment}")
    name = assignment.split("=>")[0].strip()
    param = page.locator("[data-testid=frame]", has_text=f":param {name}").first
    param.get_by_text("Successfully set your parameters").wait_for(timeout=30_000)


def _run(page: Any, text: str) -> None:
    """Type ``text`` into Browser's main editor (as pasted: no auto-closed brackets) and run it."""
    page.click("[data-testid=activeEditor] .view-lines")
    page.keyboard.insert_text(text)
    page.click("[data-testid=editor-Run]")


def test_server_stop_ends_neo4j_and_the_guide_server(
    home: dict[str, str | None], access: dict[str, Any]
) -> None:
    """Last in this module: what argkb browse said keeps serving, argkb server stop ends."""
    assert _alive(access["server_pid"]) and _alive(access["guide_pid"])
    result = CliRunner().invoke(main, ["server", "stop"], env=home)
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"Neo4j stopped (and argkb's Browser guide server, pid {access['guide_pid']})\n"
    )
    assert not _alive(access["server_pid"]) and not _alive(access["guide_pid"])


def _ascii_rows(page: Any, title: str) -> dict[tuple[str, str], str]:
    """The rows of the newest result frame titled ``title``, from its Text view."""
    frame = page.locator("[data-testid=frame]", has_text=title).first
    frame.locator("[data-testid=cypherFrameSidebarAscii]").click()
    text = frame.locator("pre").first
    text.wait_for(timeout=60_000)
    rows: dict[tuple[str, str], str] = {}
    for line in text.inner_text().splitlines():
        cells = [cell.strip().strip('"') for cell in line.strip().strip("│").split("│")]
        if len(cells) == 3 and cells[0] != "kind":
            rows[(cells[0], cells[1])] = cells[2]
    return rows
