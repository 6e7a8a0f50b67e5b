"""What a person sees in the explorer page of ``argkb serve``, from an audit (session 30): the
demo corpus, split into sentences, then a second corpus loaded after the split whose texts hold
HTML, a 400-character word, a bidirectional override and a 300-character source title; the app
served by uvicorn on loopback and Debian's chromium driven by playwright, on a real Neo4j."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
DEMO = Path(__file__).resolve().parents[2] / "examples" / "debates.json"
QUERY = "We should abandon fossil fuels"
BANNED = "Fossil fuels should be banned"
COAL = "Coal plants should close"
STOVES = "Gas stoves should be replaced"
LONG_WORD = "Fossil fuels " + "a" * 400 + " pollute the air"
HOSTILE = [
    {
        "id": "x1",
        "conclusion": "Fossil fuels <img src=x onerror=alert(1)> should be taxed",
        "premises": [
            {"text": "<script>alert('xss')</script> Carbon taxes cut fossil fuel use",
             "stance": "pro"},
            {"text": "Fossil fuel taxes hurt \u202eesrever\u202c <b>the poor</b> & \"all\"",
             "stance": "con"},
        ],
        "source": {"id": "evil", "title": "<i>Evil</i> source", "url": "javascript:alert(1)"},
    },
    {
        "id": "x2",
        "conclusion": BANNED,
        "premises": [
            {"text": LONG_WORD, "stance": "pro"},
            {"text": "Fossil fuels are banned nowhere, and " + " ".join(["word"] * 300),
             "stance": "con"},
        ],
        "source": {"id": "long", "title": "T" * 300, "url": "https://example.org/" + "p" * 500},
    },
    {"id": "x3", "conclusion": COAL, "premises": [
        {"text": f"Coal plant number {i} poisons the river next to it", "stance": "pro"}
        for i in range(320)]},
    {"id": "x4", "conclusion": STOVES,
     "premises": [{"text": "Gas stoves leak methane into kitchens", "stance": "pro"}]},
]  # fmt: skip


@pytest.fixture(scope="module")
def graph(db, tmp_path_factory):
    """The demo corpus embedded, clustered and split into sentences; then :data:`HOSTILE`
    loaded and embedded, but not split (so the pair answers note it) nor clustered."""
    from argkb.cluster.store import cluster_units
    from argkb.embed.model import Embedder
    from argkb.embed.store import embed_units
    from argkb.pipeline import split_sentences

    embedder = Embedder(cache=False)
    init_schema(db)
    load_records(db, "argsme", [DEMO], reader("argsme")([DEMO]))
    embed_units(db, embedder)
    cluster_units(db, kind="claim")
    cluster_units(db, kind="premise")
    split_sentences(db, None)
    path = tmp_path_factory.mktemp("hostile") / "hostile.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in HOSTILE), encoding="utf-8")
    load_records(db, "jsonl", [path], reader("jsonl")([path]))
    embed_units(db, embedder)
    return db


@pytest.fixture(scope="module")
def app(graph):
    from argkb.embed.model import Embedder
    from argkb.query.alignment import model_alignment
    from argkb.serve.app import create_app

    embedder = Embedder.for_queries(cache=False)
    return create_app(graph, embedder, alignment=model_alignment(embedder))


@pytest.fixture(scope="module")
def client(app):
    from fastapi.testclient import TestClient

    return TestClient(app)


class Served:
    """``app`` served by uvicorn in a thread on a free loopback port, until :meth:`stop`."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        from argkb.db.server import free_port
        from argkb.serve.protocol import server_config

        self.port = free_port()
        self.server = uvicorn.Server(server_config(app, host="127.0.0.1", port=self.port))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert self.server.started, "uvicorn did not start"
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    import playwright.sync_api as playwright

    with playwright.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def base(app) -> Iterator[str]:
    served = Served(app)
    yield served.base
    served.stop()


@pytest.fixture()
def page(browser) -> Iterator[Any]:
    """A page that records its console and its dialogs (an ``alert`` from a corpus text would
    be one); the test fails on a CSP report or a dialog."""
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    seen: list[str] = []
    page.on("console", lambda message: seen.append(message.text))

    def dialog(shown: Any) -> None:
        seen.append("dialog: " + shown.message)
        shown.dismiss()

    page.on("dialog", dialog)
    yield page
    page.close()
    assert not [m for m in seen if "Content Security Policy" in m or "dialog" in m], seen


def message_lines(page: Any) -> list[str]:
    """The lines of the page's message area (the answer's message, then each note)."""
    return [line for line in page.inner_text("#message").splitlines() if line.strip()]


def wait_message(page: Any, changed_from: str | None = None, seconds: float = 60) -> str:
    """The message once it is set (and differs from ``changed_from``) and no longer says
    "searching": polled from here, as the CSP refuses wait_for_function's eval."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        text = page.inner_text("#message")
        if text and text != changed_from and "searching" not in text:
            return text
        page.wait_for_timeout(100)
    raise AssertionError("the message stayed " + repr(page.inner_text("#message")))


def test_pairs_notes_are_shown_as_the_query_notes_are(page, base, client) -> None:
    """The sentence-pair view showed its description and never the answer's ``notes`` (here: a
    corpus loaded since the last ``argkb sentences``, whose premises the pairs lack); the
    premise-cluster view showed its notes only when the answer had no message."""
    pairs = client.get("/api/v1/pairs", params={"q": BANNED, "k": 5}).json()
    assert any("since the last 'argkb sentences'" in note for note in pairs["notes"]), pairs
    page.goto(f"{base}/?" + urlencode({"q": BANNED, "k": 5, "view": "pairs"}))
    page.wait_for_selector("#pairs li.pair", timeout=60_000)
    lines = message_lines(page)
    assert lines[0].startswith("the best sentence of each premise"), lines
    assert lines[1:] == pairs["notes"]
    # the premise clusters: the notes of that answer (the corpus loaded since argkb cluster)
    answer = client.get("/api/v1/query", params={"q": BANNED, "k": 5}).json()
    assert answer["notes"] and not answer["message"], answer
    page.select_option("#view", "clusters")
    page.press("#q", "Enter")
    page.wait_for_selector("#pro li.cluster", timeout=60_000)
    assert message_lines(page) == answer["notes"]


def _fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_corpus_texts_are_shown_as_text_and_wrap(page, base, client) -> None:
    """A premise with a 400-character word and a source title of 300 made the columns as wide
    as the word (4,352 px on a 390 px phone; every other text of the column was cut at the
    window's edge) in the cluster and key-point views. Texts that hold HTML are shown as text
    (no element, no script run)."""
    answer = client.get("/api/v1/query", params={"q": BANNED, "k": 5}).json()
    shown = [c["representative"]["text"] for side in ("pro", "con") for c in answer[side]]
    assert LONG_WORD in shown, shown
    for width in (390, 1000):
        page.set_viewport_size({"width": width, "height": 700})
        page.goto(f"{base}/?" + urlencode({"q": BANNED, "k": 5}))
        page.wait_for_selector("#pro li.cluster", timeout=60_000)
        assert _fits(page), (width, page.evaluate("document.documentElement.scrollWidth"))
        pro = page.locator("#pro-column").bounding_box()
        con = page.locator("#con-column").bounding_box()
        assert pro and con
        if width == 1000:  # two columns side by side, each within the window
            assert pro["x"] + pro["width"] <= con["x"] and con["x"] + con["width"] <= width
        page.goto(f"{base}/?" + urlencode({"q": BANNED, "view": "keypoints"}))
        page.wait_for_selector("#pro li.keypoint", timeout=60_000)
        assert _fits(page), (width, "key points")
    # HTML in a premise, a conclusion and a source title is text; a javascript: URL no link
    page.goto(f"{base}/?" + urlencode({"q": "fossil fuel taxes", "k": 10}))
    page.wait_for_selector("#pro li.cluster", timeout=60_000)
    texts = page.inner_text("main")
    assert "<script>alert('xss')</script> Carbon taxes" in texts
    assert "<b>the poor</b>" in texts and "<i>Evil</i> source" in texts
    assert page.locator("main img, main script, main b, main i").count() == 0
    hrefs = page.evaluate("[...document.querySelectorAll('main a')].map(a => a.href)")
    assert not [h for h in hrefs if not h.startswith("https://")], hrefs


def test_errors_a_user_meets_are_one_line_each(page, app, graph) -> None:
    """Stopping argkb serve under an open page made a search say "Failed to fetch"; a token
    the server does not take told the page's user to send an `Authorization` header; a token
    with a space or an accent made fetch's own "Invalid value" the message; an emptied token
    box still sent the token stored before."""
    from argkb.query.alignment import model_alignment
    from argkb.serve.app import create_app

    served = Served(app)
    page.goto(f"{served.base}/?" + urlencode({"q": QUERY, "k": 3}))
    page.wait_for_selector("#pro li.cluster", timeout=60_000)
    served.stop()
    before = page.inner_text("#message")
    page.press("#q", "Enter")
    said = wait_message(page, changed_from=before)
    assert said == (
        f"argkb serve at 127.0.0.1:{served.port} does not answer: start it again "
        "(argkb serve) and search again."
    )
    assert page.locator("#pro li").count() == 0, "no answer left under the error"
    embedder = app.state.embedder
    guarded = Served(create_app(graph, embedder, token="s3cret",
                                alignment=model_alignment(embedder)))  # fmt: skip
    try:
        page.goto(f"{guarded.base}/?" + urlencode({"q": QUERY, "k": 3}))
        assert wait_message(page).startswith("This argkb serve needs a token: type the one")
        for token, said in (
            ("wrong", "The token in the token box is not the one this argkb serve was"),
            ("s3 cret", "A token is printable ASCII without spaces"),
            ("s3crét", "A token is printable ASCII without spaces"),
        ):
            page.fill("#token", token)
            page.press("#q", "Enter")
            page.wait_for_timeout(300)
            assert wait_message(page).startswith(said), (token, page.inner_text("#message"))
            assert len(message_lines(page)) == 1
        page.fill("#token", "s3cret")
        page.press("#q", "Enter")
        page.wait_for_selector("#pro li.cluster", timeout=60_000)
        assert page.evaluate("localStorage.getItem('argkb-token')") == "s3cret"
        page.fill("#token", "")
        page.press("#q", "Enter")
        assert wait_message(page).startswith("This argkb serve needs a token")
        assert page.evaluate("localStorage.getItem('argkb-token')") is None
    finally:
        guarded.stop()


def test_neo4j_stopped_under_an_open_page(page, app) -> None:
    """A search while Neo4j is down (a driver to a port nothing listens on, as argkb serve
    opens it) says so in the API's one line, with what to do."""
    from neo4j import GraphDatabase

    from argkb.db.server import free_port
    from argkb.query.alignment import model_alignment
    from argkb.serve.app import create_app

    embedder = app.state.embedder
    with GraphDatabase.driver(f"bolt://127.0.0.1:{free_port()}", auth=("neo4j", "x"),
                              max_transaction_retry_time=1.0) as down:  # fmt: skip
        served = Served(create_app(down, embedder, alignment=model_alignment(embedder)))
        try:
            page.goto(f"{served.base}/?" + urlencode({"q": QUERY, "k": 3}))
            wait_message(page)
            assert message_lines(page) == [
                "Neo4j is unreachable: start it (argkb server start) or check --uri / NEO4J_URI"
            ]
        finally:
            served.stop()


def test_only_the_latest_search_is_shown(page, base, client) -> None:
    """An answer that came after a later search's (a slow first request, e.g. a topic's first
    key points) replaced the later answer on screen, under the later search's address."""
    held: list[Any] = []

    def hold_first(route: Any) -> None:
        if not held:
            held.append(route)  # answered below, after the second search's answer is shown
        else:
            route.continue_()

    def shown() -> list[str]:  # a representative's text, or its best sentences where it has them
        texts = page.locator("#pro > li.cluster > .representative").all_inner_texts()
        return [text.removesuffix(" full text") for text in texts]

    second = "Nuclear energy should be expanded"
    expected = [
        " ".join(rep["snippet"]) + " [...]" if rep.get("snippet") else rep["text"]
        for rep in (c["representative"] for c in client.get(
            "/api/v1/query", params={"q": second, "k": 5, "snippets": True}).json()["pro"])
    ]  # fmt: skip
    page.goto(base + "/")
    page.route("**/api/v1/query?*", hold_first)
    page.fill("#k", "5")
    page.fill("#q", QUERY)
    page.press("#q", "Enter")
    page.fill("#q", second)
    page.press("#q", "Enter")
    page.wait_for_selector("#pro li.cluster", timeout=60_000)
    assert shown() == expected
    assert held, "the first search's request was held"
    with page.expect_response(lambda response: "abandon" in response.url, timeout=60_000):
        held[0].continue_()
    page.wait_for_timeout(500)  # time for the page to show it, were it to
    assert shown() == expected
    assert page.title() == second + " · argkb explorer"


def test_key_points_of_one_premise(page, base, client) -> None:
    """The key-point view said "1 premises conclude"."""
    report = client.get("/api/v1/keypoints", params={"topic": STOVES}).json()
    assert report["premises"] == 1, report
    page.goto(f"{base}/?" + urlencode({"q": STOVES, "view": "keypoints"}))
    wait_message(page)
    assert message_lines(page)[0].startswith(f'1 premise concludes "{report["topic"]}"')


def test_graph_says_what_it_left_out_and_why_it_failed(page, base, graph) -> None:
    """The graph of a unit whose neighbourhood has more than the 300 nodes drawn did not say
    so; a graph that failed left the previous unit's drawing under the new unit's title, with
    the error above the answer, out of view. Last in the module: it deletes a unit."""
    page.goto(f"{base}/?" + urlencode({"q": COAL, "k": 3, "stance": "pro"}))
    page.wait_for_selector("#pro li.cluster", timeout=60_000)
    page.locator("#pro > li.cluster").first.get_by_role("button", name="graph").click()
    page.wait_for_selector("#graph-nodes li", state="attached", timeout=60_000)
    assert page.evaluate("window.argkbGraph.nodes().length") == 300
    assert page.inner_text("#graph-message").startswith(
        "The 300 units nearest to it: its neighbourhood at depth 2 has more"
    )
    # the next cluster's unit is deleted (its corpus replaced, say) while the page is open
    second = page.locator("#pro > li.cluster").nth(1)
    text = second.locator(".representative").inner_text()
    graph.execute_query("MATCH (u:Unit {text: $text}) DETACH DELETE u", text=text)
    before = page.inner_text("#message")
    second.get_by_role("button", name="graph").click()
    page.wait_for_timeout(300)
    deadline = time.monotonic() + 30
    while "drawing" in page.inner_text("#graph-message") and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert page.inner_text("#graph-message").startswith("no unit with key ")
    assert page.get_attribute("#graph-title", "title") == text
    assert page.evaluate("window.argkbGraph") is None, "no other unit's drawing left"
    assert page.locator("#graph-nodes li").count() == 0
    assert page.inner_text("#message") == before
