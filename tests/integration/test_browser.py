"""Neo4j Browser on a managed server (issue 15): ``argkb browse`` starts a private instance with
HTTP and auth on, the Browser jar is served at /browser/, the guide beside it, and in Debian's
chromium (playwright) the one-click URL connects, two library queries show the fixture graph's
rows and nodes, and argkb's guide plays on connect. ARGKB_SCREENSHOTS=1 saves the screenshots
to docs/ (docs/browse-*.png, shown in docs/browse.md).

The pieces that need no server: tests/unit/test_browser_pieces.py.
"""

from __future__ import annotations

import json
import os
import shutil
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.db.distribution import add_browser, default_distribution
from argkb.db.server import LocalServer, ServerConfig, free_port
from argkb.explore import library

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


@pytest.fixture(scope="module")
def access(home: dict[str, str | None]) -> dict[str, Any]:
    http_port = free_port()
    result = CliRunner().invoke(
        main, ["browse", "--no-open", "--json", "--http-port", str(http_port)], env=home
    )
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.stdout))


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
    assert json.loads(again.stdout) | {"started": True} == access
    plain = CliRunner().invoke(main, ["browse", "--no-open"], env=home)
    assert plain.exit_code == 0, plain.output
    lines = plain.stdout.splitlines()
    assert lines[0] == access["url"]
    assert "argkb server password" in plain.stdout and access["guide_url"] in plain.stdout


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


def test_guide_is_served_beside_the_server(access: dict[str, Any]) -> None:
    origin = f"http://127.0.0.1:{access['http_port']}"
    status, headers, body = _get(access["guide_url"], origin=origin)
    assert status == 200 and headers["Content-Type"] == "text/markdown; charset=utf-8"
    assert headers["Access-Control-Allow-Origin"] == origin
    assert body == GUIDE.read_bytes()


def test_browser_settings_reach_the_browser(server: LocalServer, access: dict[str, Any]) -> None:
    """What Browser reads after it connects: dbms.clientConfig()."""
    from neo4j import GraphDatabase

    with GraphDatabase.driver(server.config.uri, auth=server.config.auth()) as driver:
        records = driver.execute_query("CALL dbms.clientConfig()", database_="system").records
    settings = {record["name"]: record["value"] for record in records}
    assert settings["browser.post_connect_cmd"] == f"play {access['guide_url']}"
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

            # the guide plays on connect (browser.post_connect_cmd): its first slide
            guide = page.locator("[data-testid=frame]", has_text=f":play {access['guide_url']}")
            guide.wait_for(timeout=60_000)
            title = guide.locator("h1").first
            assert title.inner_text().strip() == _first_heading(GUIDE.read_text())
            slides = GUIDE.read_text().count("\n---\n") + 1
            assert guide.get_by_text(f"1 / {slides}").count() == 1

            title.wait_for(state="visible")
            page.wait_for_timeout(1000)  # the slide fades in
            page.screenshot(path=str(tmp_path / "browse-guide.png"))

            _run(page, ":param claim => 'ban cars'")
            # Browser sets a parameter asynchronously: a query run before it is set fails with
            # ParameterMissing, so wait for the frame that says it is set
            param = page.locator("[data-testid=frame]", has_text=":param claim")
            param.get_by_text("Successfully set your parameters").wait_for(timeout=30_000)
            _run(page, library.get("claim_arguments").text)
            frame = page.locator("[data-testid=frame]", has_text="A claim with its pro and con")
            # c1, its 4 arguments and their 4 premises (tests/fixtures/browse/graph.cypher)
            frame.get_by_text("Displaying 9 nodes, 8 relationships").wait_for(timeout=60_000)
            for label, count in (("Argument", 4), ("Claim", 2), ("Premise", 4)):
                chip = frame.locator(f"[data-testid=property-details-overview-node-label-{label}]")
                assert chip.inner_text().strip() == f"{label} ({count})"
            drawn = frame.locator("svg g.layer.nodes g.node")  # drawn, not only counted
            drawn.nth(8).wait_for(timeout=30_000)
            assert drawn.count() == 9
            page.wait_for_timeout(1500)  # let the layout settle for the picture
            page.screenshot(path=str(tmp_path / "browse-graph.png"))

            _run(page, library.get("overview").text)
            table = _ascii_rows(page, "Corpus overview")
            assert table[("label", "Unit")] == "13" and table[("label", "Claim")] == "5"
            assert table[("relationship", "PREMISE_OF")] == "12"
            assert table[("corpus complete", "browse fixture")] == "13"
        finally:
            browser.close()
    assert outside == []
    if os.environ.get("ARGKB_SCREENSHOTS"):
        for shot in tmp_path.glob("browse-*.png"):
            shutil.copy(shot, REPO / "docs" / shot.name)


def _run(page: Any, text: str) -> None:
    """Type ``text`` into Browser's main editor (as pasted: no auto-closed brackets) and run it."""
    page.click("[data-testid=activeEditor] .view-lines")
    page.keyboard.insert_text(text)
    page.click("[data-testid=editor-Run]")


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
