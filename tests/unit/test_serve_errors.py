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
