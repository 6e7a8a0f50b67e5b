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
