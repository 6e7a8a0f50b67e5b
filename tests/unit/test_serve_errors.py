"""Which handler of ``argkb serve`` answers which error, without a Neo4j server (issue #27).

:class:`~argkb.errors.ApiError` and :class:`~argkb.errors.NotFound` subclass :class:`ArgKBError`
now; the framework picks the handler of the nearest class in an error's MRO, so each must still
get its own status (422 and 404), not the 409 of a plain ArgKBError. The browse reads are
replaced by a stub store; the driver and the embedder are never called.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from argkb.errors import ApiError, ArgKBError, NotFound


class _Store:
    """Stands in for :class:`argkb.serve.store.Store`: each read raises what the test sets."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def status(self) -> dict[str, int]:
        raise self.error

    def unit(self, key: str, limit: int) -> dict[str, Any]:
        raise self.error


@pytest.fixture
def client() -> Any:
    from fastapi.testclient import TestClient

    from argkb.serve.app import create_app

    app = create_app(mock.MagicMock(name="driver"), mock.MagicMock(name="embedder"))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def test_the_old_import_paths_still_work() -> None:
    from argkb.serve import app, store

    assert app.ApiError is ApiError and store.NotFound is NotFound
    assert issubclass(ApiError, ArgKBError) and issubclass(NotFound, ArgKBError)


def test_not_found_answers_404_not_409(client: Any) -> None:
    client.app.state.store = _Store(NotFound("no unit with key 'x'"))
    response = client.get("/api/v1/units/x")
    assert response.status_code == 404
    assert response.json() == {
        "status": 404,
        "error": "not_found",
        "message": "no unit with key 'x'",
    }


def test_other_argkb_errors_answer_409(client: Any) -> None:
    client.app.state.store = _Store(ArgKBError("nothing embedded"))
    response = client.get("/api/v1/status")
    assert response.status_code == 409
    assert response.json() == {
        "status": 409,
        "error": "cannot_answer",
        "message": "nothing embedded",
    }


def test_api_error_answers_its_own_status(client: Any) -> None:
    client.app.state.store = _Store(ApiError(418, "teapot", "short and stout"))
    response = client.get("/api/v1/status")
    assert response.status_code == 418
    assert response.json() == {"status": 418, "error": "teapot", "message": "short and stout"}


def test_a_blank_query_is_the_routes_api_error(client: Any) -> None:
    client.app.state.engine = mock.MagicMock(name="engine")
    response = client.get("/api/v1/query", params={"q": "   "})
    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "invalid_parameter" and "'q' is blank" in body["message"]
    client.app.state.engine.query.assert_not_called()


def test_a_stalled_database_gets_504_at_the_deadline_not_a_hung_request() -> None:
    """A Neo4j that accepts connections and never answers held requests for 40 s to over two
    minutes; every endpoint now answers 504 after DEADLINE_TIMEOUTS x --timeout."""
    import threading
    import time

    from fastapi.testclient import TestClient

    from argkb.serve.app import DEADLINE_TIMEOUTS, create_app

    release = threading.Event()

    class Stalled:
        def ping(self) -> None:
            release.wait(30)

    app = create_app(mock.MagicMock(name="driver"), mock.MagicMock(name="embedder"), timeout=0.2)
    with TestClient(app, raise_server_exceptions=False) as client:
        app.state.store = Stalled()
        started = time.perf_counter()
        response = client.get("/healthz")
        waited = time.perf_counter() - started
        page = client.get("/")  # the page does not queue behind the stalled request
        release.set()
    assert response.status_code == 504 and response.json()["error"] == "database_timeout"
    assert DEADLINE_TIMEOUTS * 0.2 <= waited < 5
    assert page.status_code == 200


def test_an_unknown_parameter_is_named_not_ignored(client: Any) -> None:
    client.app.state.engine = mock.MagicMock(name="engine")
    response = client.get("/api/v1/query", params={"q": "nuclear power", "rankr": "pfidf"})
    assert response.status_code == 422
    message = response.json()["message"]
    assert "unknown parameter 'rankr'" in message and "ranker" in message
    client.app.state.engine.query.assert_not_called()


def test_405_says_which_methods_are_allowed(client: Any) -> None:
    response = client.delete("/api/v1/status")
    assert response.status_code == 405 and response.headers["allow"] == "GET, HEAD"


@pytest.mark.parametrize("path", ["/", "/healthz", "/openapi.json", "/no/such/page"])
def test_head_is_answered_as_get_without_the_body(client: Any, path: str) -> None:
    """HEAD on a GET endpoint used to be a 405; now GET's status and headers, no body."""
    got, head = client.get(path), client.head(path)
    assert head.status_code == got.status_code and head.content == b""
    for name in ("content-type", "content-length", "x-content-type-options"):
        assert head.headers.get(name) == got.headers.get(name), name


@pytest.mark.parametrize(
    ("host", "status"),
    [("127.0.0.1:8765", 200), ("localhost", 200), ("[::1]:8765", 200),
     ("attacker.example", 400), ("attacker.example:8765", 400), ("127.0.0.1.nip.io", 400)],
)  # fmt: skip
def test_on_loopback_only_this_machines_names_are_answered(host: str, status: int) -> None:
    """A page on another name that resolves to 127.0.0.1 (DNS rebinding) read the API."""
    from fastapi.testclient import TestClient

    from argkb.serve.app import LOOPBACK_NAMES, create_app

    app = create_app(mock.MagicMock(name="driver"), mock.MagicMock(name="embedder"),
                     hosts=LOOPBACK_NAMES)  # fmt: skip
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/", headers={"host": host})
    assert response.status_code == status
    if status == 400:
        assert response.json()["error"] == "unknown_host"


def test_the_page_keeps_its_address_fields(client: Any) -> None:
    """The explorer's address holds its form (``/?q=...&k=5&stance=both&view=pairs``): only
    the API refuses parameters it does not take."""
    response = client.get("/", params={"q": "nuclear power", "k": 5, "view": "pairs"})
    assert response.status_code == 200 and "text/html" in response.headers["content-type"]


@pytest.mark.parametrize("value", ["bytes=abc", "bytes=5-1", "bytes=99999999-", "bytes=0-9"])
def test_a_range_header_is_ignored_so_no_answer_is_plain_text(client: Any, value: str) -> None:
    """Starlette's file responses answered bad ranges with a plain-text 400 or an empty 416."""
    for path in ("/", "/static/explorer.js"):
        response = client.get(path, headers={"range": value})
        assert response.status_code == 200 and len(response.content) > 1000


# -- from the API audit of 2026-11-28 (session 27) -------------------------------------------


@pytest.mark.parametrize(
    ("error", "status", "kind"),
    [
        ("ConnectionAcquisitionTimeoutError", 504, "database_timeout"),
        ("ConfigurationError", 503, "database_error"),
    ],
)
def test_the_drivers_own_errors_are_503_or_504_not_a_bug(
    client: Any, error: str, status: int, kind: str
) -> None:
    """Threads abandoned at the deadline keep their pooled connections to a stalled Neo4j; the
    next requests then waited for a connection, and the driver's timeout was a 500."""
    import neo4j.exceptions

    client.app.state.store = _Store(getattr(neo4j.exceptions, error)("no connection"))
    response = client.get("/api/v1/status")
    assert (response.status_code, response.json()["error"]) == (status, kind)


def test_a_request_that_gets_no_thread_by_the_deadline_is_busy_not_a_stalled_neo4j(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under load the 504 told users to check Neo4j for requests that never reached it."""
    from anyio import CapacityLimiter
    from fastapi.testclient import TestClient

    from argkb.serve import routes
    from argkb.serve.app import create_app

    def taken() -> CapacityLimiter:  # its one thread held by another request
        limiter = CapacityLimiter(1)
        limiter.acquire_on_behalf_of_nowait(object())
        return limiter

    monkeypatch.setattr(routes, "database_threads", taken)
    app = create_app(mock.MagicMock(name="driver"), mock.MagicMock(name="embedder"), timeout=0.1)
    with TestClient(app, raise_server_exceptions=False) as client:
        app.state.store = _Store(AssertionError("never read"))
        response = client.get("/api/v1/status")
        health = client.get("/healthz")  # threads of its own
    assert (response.status_code, response.json()["error"]) == (503, "busy")
    assert response.headers["retry-after"] == str(routes.BUSY_RETRY_SECONDS)
    assert "Neo4j was not asked" in response.json()["message"]
    assert health.status_code != 503


@pytest.mark.parametrize(
    ("path", "params", "said"),
    [
        ("/api/v1/query", [("q", "a"), ("q", "b")], "parameter 'q' is given more than once"),
        ("/api/v1/query?q=%ff", None, "parameter 'q' is not valid UTF-8"),
        ("/api/v1/query?q=%ED%A0%80", None, "parameter 'q' is not valid UTF-8"),
        ("/api/v1/units/%ff", None, "the address is not valid UTF-8"),
        ("/api/v1/query?q=a%00b", None, "parameter 'q' holds a control character"),
        ("/api/v1/keypoints?topic=x%1bx", None, "parameter 'topic' holds a control character"),
        ("/api/v1/units/" + "k" * 1001, None, "parameter 'key'"),
        ("/api/v1/units/", None, "parameter 'key'"),
        ("/api/v1/graph?key=" + "k" * 1001, None, "parameter 'key'"),
    ],
)  # fmt: skip
def test_text_the_api_would_misread_is_refused(
    client: Any, path: str, params: Any, said: str
) -> None:
    """Repeated parameters (the last one won), bytes that are not UTF-8 (read as U+FFFD and
    answered with unrelated premises), control characters, and keys of any length (echoed
    whole in the 404) are a 422 before anything is asked."""
    client.app.state.engine = mock.MagicMock(name="engine")
    client.app.state.store = _Store(AssertionError("never read"))
    response = client.get(path, params=params)
    assert response.status_code == 422, response.text
    assert said in response.json()["message"], response.json()
    client.app.state.engine.query.assert_not_called()


def test_a_trailing_slash_is_a_json_404_not_an_empty_redirect(client: Any) -> None:
    response = client.get("/api/v1/query/", params={"q": "x"}, follow_redirects=False)
    assert response.status_code == 404 and response.json()["error"] == "http_error"


def test_answers_advertise_no_byte_ranges_and_api_answers_are_not_cached(client: Any) -> None:
    page, api = client.get("/static/explorer.css"), client.get("/api/v1/nothing")
    assert "accept-ranges" not in page.headers and "cache-control" not in page.headers
    assert api.headers["cache-control"] == "no-store"


@pytest.mark.parametrize(
    ("buffered", "status", "said"),
    [
        (b"GET /?q=" + b"a" * 70_000, 414, "the address is longer"),
        (b"GET / HTTP/1.1\r\nX-Big: " + b"a" * 70_000, 431, "send fewer or shorter headers"),
        ("GET /api/v1/query?q=é HTTP/1.1\r\n".encode(), 400, "percent-encode"),
        (b"GET /api/v1/units/a b HTTP/1.1\r\n", 400, "percent-encode"),
        (b"\x16\x03\x01\x02\x00", 400, "not an HTTP/1.1 request"),
    ],
)  # fmt: skip
def test_an_unreadable_request_head_is_told_what_to_change(
    buffered: bytes, status: int, said: str
) -> None:
    """The 414 and 431 blamed parameter 'q' whatever was long; a raw space or non-ASCII byte
    got 'not an HTTP/1.1 request'."""
    from argkb.serve.protocol import _unreadable

    got, _, message = _unreadable(buffered)
    assert got == status and said in message


def test_a_connection_that_sends_no_request_head_is_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """uvicorn timed out only the wait between requests: a client that sent nothing, or half
    a head, held its connection for ever (3,000 idle ones were still open after a minute)."""
    import socket
    import threading
    import time

    import uvicorn

    from argkb.serve import protocol

    monkeypatch.setattr(protocol, "HEAD_SECONDS", 0.5)

    async def app(scope: Any, receive: Any, send: Any) -> None:  # slower than HEAD_SECONDS
        import asyncio

        await asyncio.sleep(1.0)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    sock = protocol.listening_socket("127.0.0.1", 0)
    server = uvicorn.Server(protocol.server_config(app, host="127.0.0.1", port=0))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.05)
        for sent in (b"", b"GET /healthz HTTP/1.1\r\nHost: loc"):
            client = socket.create_connection(sock.getsockname()[:2], timeout=5)
            client.sendall(sent)
            started = time.monotonic()
            assert client.recv(1024) == b""  # closed by the server, without an answer
            assert time.monotonic() - started < 3
            client.close()
        # a request being answered is not cut, and the next one on the connection is served
        client = socket.create_connection(sock.getsockname()[:2], timeout=5)
        for _ in range(2):
            client.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            answer = b""
            while not answer.endswith(b"0\r\n\r\n"):  # the last chunk
                got = client.recv(1024)
                assert got, answer  # not closed before the answer
                answer += got
            assert answer.startswith(b"HTTP/1.1 200") and b"ok" in answer
        client.close()
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.mark.parametrize(
    ("site", "status"), [("cross-site", 403), ("same-origin", 404), (None, 404)]
)
def test_a_page_of_another_site_cannot_make_the_api_work(
    client: Any, site: str | None, status: int
) -> None:
    """A cross-site page could not read the answers (no CORS) but could make the server rank
    for it with an <img> per query; browsers say so in Sec-Fetch-Site."""
    headers = {"sec-fetch-site": site} if site else {}
    response = client.get("/api/v1/nothing", headers=headers)
    assert response.status_code == status
    if status == 403:
        assert response.json()["error"] == "cross_site"
    assert client.get("/", headers=headers).status_code == 200  # the page itself stays public
