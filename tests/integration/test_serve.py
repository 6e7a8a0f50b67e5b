"""The HTTP API of ``argkb serve`` on a real Neo4j with the demo corpus (no network: the
application runs in-process behind Starlette's test client)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

# schemathesis loads its OpenAPI code on first use, and pytest rewrites the asserts of each module
# it loads (schemathesis is a pytest plugin). Loaded inside the property test, after hundreds of
# tests, Python 3.11.7's compiler failed on one of them ("SystemError: AST constructor recursion
# depth mismatch", a clean-clone CI run of 2026-12-02); loaded here, at collection, it is parsed
# before any test has run.
import schemathesis.python.asgi
import schemathesis.specs.openapi.schemas  # noqa: F401

from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
DEMO = Path(__file__).resolve().parents[2] / "examples" / "debates.json"
QUERY = "We should abandon fossil fuels"


@pytest.fixture(scope="module")
def embedder():
    from argkb.embed.model import Embedder

    return Embedder(cache=False)


@pytest.fixture(scope="module")
def demo_db(db, embedder):
    from argkb.cluster.store import cluster_units
    from argkb.embed.store import embed_units
    from argkb.rank.store import run_pagerank

    init_schema(db)
    load_records(db, "argsme", [DEMO], reader("argsme")([DEMO]))
    embed_units(db, embedder)
    cluster_units(db, kind="claim")
    cluster_units(db, kind="premise")
    run_pagerank(db)  # the explorer shows PageRank in words and sizes nodes by it
    return db


@pytest.fixture(scope="module")
def query_embedder():
    """The embedder ``argkb serve`` and ``argkb query`` embed queries with (ONNX where it is
    installed): torch's vectors differ from it in the seventh digit, which shows in the answer's
    cosines."""
    from argkb.embed.model import Embedder

    return Embedder.for_queries(cache=False)


def _client(db, embedder, **kwargs):
    from fastapi.testclient import TestClient

    from argkb.query.alignment import model_alignment
    from argkb.serve.app import create_app

    app = create_app(db, embedder, alignment=model_alignment(embedder), **kwargs)
    # a 5xx must show as a status here, not as an exception raised into the test
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture(scope="module")
def client(demo_db, query_embedder):
    with _client(demo_db, query_embedder) as client:
        yield client


@pytest.fixture(scope="module")
def answer(client) -> dict[str, Any]:
    response = client.get("/api/v1/query", params={"q": QUERY, "k": 5})
    assert response.status_code == 200, response.text
    return response.json()


def _without_timing(result: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in result.items() if key != "seconds"}


def test_query_answers_as_the_cli_json_does(answer, neo4j_uri) -> None:
    from click.testing import CliRunner

    from argkb.cli import main
    from argkb.query.settings import DEFAULT

    assert answer["ranker"] == DEFAULT.ranker
    assert answer["pro"] and answer["con"] and answer["claims"]
    assert len(answer["pro"]) <= 5 and len(answer["con"]) <= 5
    cli = CliRunner().invoke(main, ["query", QUERY, "--k", "5", "--json", "--uri", neo4j_uri])
    assert cli.exit_code == 0, cli.output
    assert _without_timing(answer) == _without_timing(json.loads(cli.stdout))


def test_query_options(client) -> None:
    response = client.get(
        "/api/v1/query",
        params={"q": QUERY, "k": 2, "ranker": "pfidf", "stance": "pro", "explain": "true"},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["ranker"] == "pfidf" and body["con"] == []
    assert 1 <= len(body["pro"]) <= 2
    assert all(cluster["explain"] for cluster in body["pro"])


def test_concurrent_queries_share_model_and_driver(client) -> None:
    """Endpoints run in the server's thread pool over one embedder and driver: answers asked at
    the same time equal those asked one by one."""
    from concurrent.futures import ThreadPoolExecutor

    claims = [QUERY, "Nuclear power is safe", "Renewables are too expensive", "Ban cars"]

    def ask(q: str) -> dict[str, Any]:
        response = client.get("/api/v1/query", params={"q": q, "k": 5})
        assert response.status_code == 200, response.text
        return _without_timing(response.json())

    alone = [ask(q) for q in claims]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(ask, claims * 2))
    assert together == alone * 2


def test_unit_claim_arguments_and_cluster(client, answer) -> None:
    premise = answer["pro"][0]["representative"]
    unit = client.get(f"/api/v1/units/{premise['key']}")
    assert unit.status_code == 200, unit.text
    body = unit.json()
    assert body["text"] == premise["text"] and body["is_premise"] and body["embedded"]
    assert body["premise_of"] and body["premise_count"] >= len(body["premise_of"])
    assert {use["argument"] for use in body["premise_of"]} >= set(premise["arguments"])

    claim_key = body["premise_of"][0]["claim_key"]
    arguments = client.get(f"/api/v1/claims/{claim_key}/arguments")
    assert arguments.status_code == 200, arguments.text
    listed = arguments.json()
    assert listed["total"] == len(listed["arguments"]) >= 1
    premises = {p["key"] for a in listed["arguments"] for p in a["premises"]}
    assert premise["key"] in premises
    assert all(p["stance"] in ("pro", "con", "unknown") for a in listed["arguments"]
               for p in a["premises"])  # fmt: skip
    one = client.get(f"/api/v1/claims/{claim_key}/arguments", params={"limit": 1})
    assert len(one.json()["arguments"]) == 1

    clusters = [c for c in body["clusters"] if c["kind"] == "premise"]
    assert clusters, "the fixture clusters premises"
    cluster = client.get(f"/api/v1/clusters/{clusters[0]['cid']}")
    assert cluster.status_code == 200, cluster.text
    detail = cluster.json()
    assert detail["kind"] == "premise" and detail["size"] == clusters[0]["size"]
    assert premise["key"] in {m["key"] for m in detail["members"]}


def test_graph_neighbourhood(client, answer) -> None:
    claim_key = answer["claims"][0]["key"]
    near = client.get("/api/v1/graph", params={"key": claim_key, "depth": 1})
    assert near.status_code == 200, near.text
    graph = near.json()
    nodes = {n["id"]: n for n in graph["nodes"]}
    assert nodes[claim_key]["depth"] == 0 and not graph["truncated"]
    assert len(nodes) > 1 and all(n["depth"] <= 1 for n in nodes.values())
    assert graph["edges"]
    for edge in graph["edges"]:
        assert edge["source"] in nodes and edge["target"] in nodes
        assert claim_key in (edge["source"], edge["target"])  # depth 1: edges at the claim
    premise_edges = [e for e in graph["edges"] if e["type"] == "premise_of"]
    assert premise_edges and all(e["argument"] for e in premise_edges)

    far = client.get("/api/v1/graph", params={"key": claim_key, "depth": 3}).json()
    assert {n["id"] for n in far["nodes"]} >= set(nodes)
    cut = client.get("/api/v1/graph", params={"key": claim_key, "depth": 3, "limit": 2}).json()
    assert len(cut["nodes"]) == 2 and cut["truncated"]


def test_status_and_health(client, demo_db) -> None:
    health = client.get("/healthz")
    assert health.status_code == 200 and health.json() == {"status": "ok"}
    status = client.get("/api/v1/status")
    assert status.status_code == 200, status.text
    body = status.json()
    units, claims = demo_db.execute_query(
        "RETURN COUNT { (:Unit) } AS units, COUNT { (:Claim) } AS claims"
    ).records[0]
    assert body["graph"]["units"] == units and body["graph"]["claims"] == claims
    assert body["ready"] and body["hint"] is None


def test_no_cors_header_for_other_origins(client) -> None:
    """A page from another origin must not read the API's answers (issue 13): argkb serve sends
    no Access-Control-Allow-Origin at all, neither on a request nor on a CORS preflight."""
    evil = {"Origin": "http://evil.example"}
    answered = client.get("/api/v1/status", headers=evil)
    assert answered.status_code == 200
    preflight = client.options(
        "/api/v1/query", headers={**evil, "Access-Control-Request-Method": "GET"}
    )
    for response in (answered, preflight):
        assert "access-control-allow-origin" not in response.headers
        assert "access-control-allow-credentials" not in response.headers


def test_openapi_documents_every_endpoint(client) -> None:
    doc = client.get("/openapi.json").json()
    assert set(doc["paths"]) == {
        "/healthz",
        "/api/v1/status",
        "/api/v1/query",
        "/api/v1/pairs",
        "/api/v1/keypoints",
        "/api/v1/units/{key}",
        "/api/v1/claims/{key}/arguments",
        "/api/v1/clusters/{cid}",
        "/api/v1/graph",
    }
    k = next(p for p in doc["paths"]["/api/v1/query"]["get"]["parameters"] if p["name"] == "k")
    assert k["schema"]["minimum"] == 1 and k["schema"]["maximum"] == 100
    # each operation lists the errors it can answer (schemathesis, below, holds answers to them)
    statuses = {path: set(item["get"]["responses"]) for path, item in doc["paths"].items()}
    assert statuses["/healthz"] == {"200", "401", "503", "504"}
    assert statuses["/api/v1/query"] == {"200", "401", "403", "409", "422", "503", "504"}
    assert statuses["/api/v1/keypoints"] == statuses["/api/v1/query"] | {"404"}
    assert statuses["/api/v1/units/{key}"] == {"200", "401", "403", "404", "422", "503", "504"}


BAD = [
    ("/api/v1/query", {"q": ""}, 422),
    ("/api/v1/query", {"q": "   "}, 422),
    ("/api/v1/query", {}, 422),
    ("/api/v1/query", {"q": QUERY, "k": 0}, 422),
    ("/api/v1/query", {"q": QUERY, "k": 10**6}, 422),
    ("/api/v1/query", {"q": QUERY, "k": "ten"}, 422),
    ("/api/v1/query", {"q": QUERY, "ranker": "best"}, 422),
    ("/api/v1/query", {"q": QUERY, "stance": "maybe"}, 422),
    ("/api/v1/units/no-such-unit", {}, 404),
    ("/api/v1/units/t:0", {"limit": 0}, 422),
    ("/api/v1/claims/no-such-claim/arguments", {}, 404),
    ("/api/v1/clusters/premise:999999", {}, 404),
    ("/api/v1/graph", {"key": "no-such-unit"}, 404),
    ("/api/v1/graph", {"key": "x", "depth": 0}, 422),
    ("/api/v1/graph", {"key": "x", "depth": 4}, 422),
    ("/api/v1/graph", {}, 422),
    ("/api/v2/arguments", {"query": QUERY}, 404),
    ("/api/v1/keypoints", {}, 422),
    ("/api/v1/keypoints", {"topic": "  "}, 422),
    ("/api/v1/keypoints", {"topic": QUERY, "k": 0}, 422),
    ("/api/v1/keypoints", {"topic": QUERY, "stance": "maybe"}, 422),
    ("/api/v1/keypoints", {"topic": "no argument concludes this"}, 404),
]


@pytest.mark.parametrize(("path", "params", "status"), BAD)
def test_bad_requests_answer_4xx_with_a_json_message(client, path, params, status) -> None:
    response = client.get(path, params=params)
    assert response.status_code == status, response.text
    body = response.json()
    assert body["status"] == status and body["error"]
    assert len(body["message"]) > 15


def _raw_get(app: Any, path: str, query_string: bytes) -> tuple[int, dict[str, Any]]:
    """GET through the ASGI interface itself: the test client refuses URLs over 64 kB."""
    import anyio

    sent: list[dict[str, Any]] = []
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
        "query_string": query_string, "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8765),
    }  # fmt: skip

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    anyio.run(app, scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body)


def test_a_100_kb_query_is_refused(client) -> None:
    status, body = _raw_get(client.app, "/api/v1/query", b"q=" + b"x" * 100_000)
    assert status == 422 and body["status"] == 422
    assert "at most 2000 characters" in body["message"]


def test_a_premise_is_not_a_claim(client, answer) -> None:
    premise_only = next(
        cluster["representative"]["key"]
        for cluster in answer["pro"] + answer["con"]
        if not client.get(f"/api/v1/units/{cluster['representative']['key']}").json()["is_claim"]
    )
    response = client.get(f"/api/v1/claims/{premise_only}/arguments")
    assert response.status_code == 404 and "not a claim" in response.json()["message"]


def test_post_is_refused_as_json(client) -> None:
    response = client.post("/api/v1/query", params={"q": QUERY})
    assert response.status_code == 405 and "use GET" in response.json()["message"]


def test_token_protects_every_endpoint(demo_db, query_embedder) -> None:
    with _client(demo_db, query_embedder, token="s3cret") as client:
        for path in ("/healthz", "/api/v1/status", "/openapi.json", "/api/v1/graph?key=x"):
            missing = client.get(path)
            assert missing.status_code == 401, path
            assert "Bearer" in missing.json()["message"]
            assert missing.headers["www-authenticate"] == "Bearer"
            wrong = client.get(path, headers={"Authorization": "Bearer nope"})
            assert wrong.status_code == 401, path
        good = client.get("/healthz", headers={"Authorization": "Bearer s3cret"})
        assert good.status_code == 200
        # the explorer page and its assets hold no data: the page sends the token itself
        assert client.get("/").status_code == 200
        assert client.get("/static/explorer.js").status_code == 200


def test_explorer_page_is_served_offline(client) -> None:
    import re

    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    scripts = re.findall(r'<(?:script src|link rel="stylesheet" href)="([^"]+)"', page.text)
    assert "static/vendor/cytoscape-3.34.4.min.js" in scripts and "static/explorer.js" in scripts
    for asset in scripts:
        served = client.get("/" + asset)
        assert served.status_code == 200 and len(served.content) > 500, asset
    script = client.get("/static/explorer.js").text
    for text in (page.text, script):  # nothing fetched from elsewhere: works offline
        assert not re.search(r'(?:src|href)="(?:https?:)?//', text)
        assert 'fetch("http' not in text and "fetch('http" not in text
    assert '"api/v1/" + path' in script  # the page asks the API it is served with


SECURITY_HEADERS = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


def _assert_security_headers(headers: Any, what: str) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert headers.get(name) == value, (what, name)
    policy = headers.get("content-security-policy", "")
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, what
    assert "http" not in policy and "*" not in policy and "unsafe" not in policy, policy


def test_every_answer_has_the_security_headers(demo_db, query_embedder, client) -> None:
    """Issue 26: the explorer and the API sent no security headers."""
    for path in ("/", "/static/explorer.js", "/static/vendor/cytoscape-3.34.4.min.js",
                 "/api/v1/status", "/openapi.json", "/api/v1/query?q=", "/nowhere"):  # fmt: skip
        _assert_security_headers(client.get(path).headers, path)
    with _client(demo_db, query_embedder, token="s3cret") as guarded:
        refused = guarded.get("/api/v1/status")
        assert refused.status_code == 401
        _assert_security_headers(refused.headers, "401")


def test_a_bug_answers_500_as_json_with_the_headers(demo_db, query_embedder) -> None:
    with _client(demo_db, query_embedder) as client:
        client.app.state.store.status = lambda: 1 / 0  # a bug in an endpoint
        response = client.get("/api/v1/status")
    assert response.status_code == 500
    assert response.json() == {
        "status": 500,
        "error": "internal_error",
        "message": "argkb serve failed on this request (see its log)",
    }
    _assert_security_headers(response.headers, "500")


def test_api_docs_pages_that_load_from_cdns_are_gone(client) -> None:
    """/docs and /redoc loaded Swagger UI and ReDoc from jsDelivr and fonts from Google: off;
    the OpenAPI document stays."""
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.json()["message"] == f"no endpoint {path}: see /openapi.json"
    assert client.get("/openapi.json").json()["info"]["title"] == "argkb"


def _raw_http(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` on a new socket, all of it, and read the answer until the server
    closes (the requests say ``Connection: close``)."""
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(1 << 16):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    fields = (line.split(": ", 1) for line in lines[1:])
    headers = {name.lower(): value for name, value in fields}
    return int(lines[0].split()[1]), headers, body


def _socket_get(
    port: int, target: bytes, host: bytes = b"127.0.0.1"
) -> tuple[int, dict[str, str], bytes]:
    return _raw_http(
        port, b"GET " + target + b" HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n"
    )


def test_argkb_serve_answers_json_to_any_request(neo4j_uri, demo_db, tmp_path) -> None:
    """Issue 26: through ``argkb serve`` itself, a 1 MB ``q`` got uvicorn's plain-text ``400
    Invalid HTTP request`` and a reset, a 99 kB one the API's JSON 422. Now both are JSON (414
    for a request head past MAX_REQUEST_HEAD), the client reads the answer, and so is a request
    that is no HTTP."""
    import os
    import subprocess
    import sys
    import time

    from argkb.db.server import free_port
    from argkb.serve.protocol import MAX_REQUEST_HEAD

    port = free_port()
    argkb = Path(sys.executable).with_name("argkb")
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(
        [str(argkb), "serve", "--port", str(port), "--uri", neo4j_uri],
        stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "NO_COLOR": "1"},
    )  # fmt: skip
    status = 0
    try:
        for _ in range(600):
            try:
                status, _, _ = _socket_get(port, b"/healthz")
                break
            except OSError:
                assert server.poll() is None, (tmp_path / "serve.log").read_text()
                time.sleep(0.2)
        assert status == 200
        assert "warmed up in" in (tmp_path / "serve.log").read_text()

        def get(q_bytes: int) -> tuple[int, dict[str, str], dict[str, Any]]:
            status, headers, body = _socket_get(port, b"/api/v1/query?q=" + b"x" * q_bytes)
            return status, headers, json.loads(body)

        status, headers, body = get(1_000_000)
        assert status == 414 and body["status"] == 414 and body["error"] == "uri_too_long"
        assert f"{MAX_REQUEST_HEAD:,} bytes" in body["message"] and "2000" in body["message"]
        assert headers["content-type"] == "application/json"
        _assert_security_headers(headers, "414")
        status, headers, body = get(99_000)
        assert status == 422 and "at most 2000 characters" in body["message"]
        _assert_security_headers(headers, "422")
        status, headers, junk = _raw_http(port, b"\x16\x03\x01 not http\r\n\r\n")
        assert status == 400 and json.loads(junk)["error"] == "bad_request"
        status, headers, page = _socket_get(port, b"/docs")
        assert status == 404 and json.loads(page)["status"] == 404
        status, headers, page = _socket_get(port, b"/")
        assert status == 200 and b"explorer.js" in page
        _assert_security_headers(headers, "/")
        # on loopback, another name for this machine (DNS rebinding) gets no answer
        status, headers, page = _socket_get(port, b"/api/v1/status", host=b"attacker.example")
        assert status == 400 and json.loads(page)["error"] == "unknown_host"
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def test_the_warm_up_answers_or_says_why_not(demo_db, query_embedder) -> None:
    """``argkb serve`` answers queries once before listening (argkb.serve.app.warm_up); where
    the database cannot answer, it says so in one line and serving goes on."""
    from argkb.query.alignment import model_alignment
    from argkb.serve.app import create_app, warm_up

    app = create_app(demo_db, query_embedder, alignment=model_alignment(query_embedder))
    assert warm_up(app).startswith("indexes and query plans warmed up in ")
    missing = create_app(demo_db, query_embedder, database="nosuchdatabase",
                         alignment=model_alignment(query_embedder))  # fmt: skip
    said = warm_up(missing)
    assert said.startswith("warm-up query failed, serving anyway: ") and "\n" not in said
    assert "nosuchdatabase" in said or "Neo4j" in said


def test_database_calls_time_out_as_504(demo_db, query_embedder) -> None:
    from argkb.serve.store import TimedDriver

    slow = "UNWIND range(1, 1000000000) AS x RETURN sum(x) AS total"
    with _client(demo_db, query_embedder, timeout=0.2) as client:
        store = client.app.state.store
        assert isinstance(store.driver, TimedDriver) and store.driver.timeout == 0.2
        store.status = lambda: store.driver.execute_query(slow)  # a read that outlasts 0.2 s
        response = client.get("/api/v1/status")
    assert response.status_code == 504, response.text
    assert "--timeout" in response.json()["message"]


def test_slow_keypoints_answer_504_naming_what_took_long(demo_db, query_embedder) -> None:
    """Key points of a topic with thousands of premises take longer than the deadline, most of
    it in embedding them (the database read takes milliseconds): the 504 says so, and how to
    get them anyway, instead of only blaming Neo4j, which is fine."""
    import time

    class SlowEmbedder:
        def embed(self, texts, **kwargs):
            time.sleep(2)  # as thousands of premises take
            return query_embedder.embed(texts, **kwargs)

    with _client(demo_db, query_embedder, timeout=0.2) as client:
        client.app.state.embedder = SlowEmbedder()
        response = client.get("/api/v1/keypoints", params={"topic": QUERY})
    assert response.status_code == 504, response.text
    message = response.json()["message"]
    assert message.startswith("no answer within 0.4 s: computing the topic's key points took")
    assert "the server keeps what it embedded" in message and "--timeout" in message


EXAMPLES = {"GET /api/v1/query": 12}  # each answer embeds and ranks: fewer examples
"""Examples per operation and generation mode in the property test (default 30)."""


def _no_5xx(operation: Any, mode: Any, seen: dict[str, int]) -> None:
    """Draw ``EXAMPLES`` requests of ``operation`` in ``mode`` and call the app with each."""
    from hypothesis import HealthCheck, given, settings

    label = operation.label

    @settings(
        max_examples=EXAMPLES.get(label, 30), deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def check(case: Any) -> None:
        # schemathesis' own checks too: the answer matches its documented schema and status
        response = case.call_and_validate()
        assert response.status_code < 500, (case.path, case.query, response.text)
        if response.status_code >= 400:
            body = response.json()
            assert body["status"] == response.status_code and body["message"], body
        seen[label] = seen.get(label, 0) + 1

    check()


def test_property_no_operation_answers_5xx(client) -> None:
    """schemathesis draws requests from the app's own OpenAPI document, valid and invalid ones,
    and calls the app in-process (no socket): none may answer 5xx, every answer matches the
    documented schema, every 4xx is a JSON message. Bounded by ``EXAMPLES``."""
    import schemathesis
    from schemathesis import GenerationMode
    from schemathesis.core.result import Ok

    schema = schemathesis.openapi.from_asgi("/openapi.json", client.app)
    paths = client.get("/openapi.json").json()["paths"]
    seen: dict[str, int] = {}
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), f"the OpenAPI document is invalid: {result.err()}"
        operation = result.ok()
        modes = [GenerationMode.POSITIVE]
        if paths[operation.path]["get"].get("parameters"):  # nothing to get wrong otherwise
            modes.append(GenerationMode.NEGATIVE)
        for mode in modes:
            _no_5xx(operation, mode, seen)
    assert set(seen) == {f"GET {path}" for path in paths}, "every operation was called"


SECOND = "Nuclear energy should be expanded"
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "images"


@pytest.fixture(scope="module")
def explorer(client):
    """The app served on loopback (uvicorn in a thread) and Debian's chromium driven by
    playwright: yields (base URL, browser). ARGKB_SCREENSHOTS=1 saves the screenshots to
    docs/images/."""
    import shutil
    import threading
    import time

    # `make test` installs Debian's chromium and playwright: a missing one is a failure
    chromium = shutil.which("chromium")
    assert chromium is not None, "needs Debian's chromium: make chromium (apt-get install)"
    import playwright.sync_api as playwright
    import uvicorn

    from argkb.db.server import free_port
    from argkb.serve.protocol import server_config

    port = free_port()
    server = uvicorn.Server(server_config(client.app, host="127.0.0.1", port=port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    try:
        with playwright.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            yield f"http://127.0.0.1:{port}", browser
            browser.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)


class _Page:
    """A page of the explorer that records its console, so a test can check that the CSP
    refused nothing."""

    def __init__(self, browser, width: int = 1000, height: int = 640) -> None:
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.console: list[str] = []
        self.page.on("console", lambda message: self.console.append(message.text))

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.page.close()
        assert not [m for m in self.console if "Content Security Policy" in m], self.console

    def representatives(self, side: str) -> list[str]:
        return self.page.locator(f"#{side} > li.cluster > .representative").all_inner_texts()

    def wait_answer(self, old: list[str] | None = None) -> None:
        """Until the pro column is filled (and differs from ``old``); polled from here:
        wait_for_function evaluates its predicate by eval in the page, which the CSP refuses."""
        import time

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            shown = self.representatives("pro") or self.representatives("con")
            if shown and shown != old:
                return
            self.page.wait_for_timeout(100)
        raise AssertionError("no answer shown: " + self.page.inner_text("#message"))

    def graph_of_first_pro(self, base: str) -> None:
        """Ask the test's query (k = 5), then click "graph" on the first pro cluster."""
        from urllib.parse import urlencode

        self.page.goto(f"{base}/?" + urlencode({"q": QUERY, "k": 5}))
        self.wait_answer()
        self.page.locator("#pro > li.cluster").first.get_by_role("button", name="graph").click()

    def params(self) -> dict[str, str]:
        from urllib.parse import parse_qs, urlparse

        return {k: v[0] for k, v in parse_qs(urlparse(self.page.url).query).items()}

    def shot(self, name: str, target=None) -> None:
        import os

        if os.environ.get("ARGKB_SCREENSHOTS"):
            SHOTS.mkdir(exist_ok=True)
            (target or self.page).screenshot(path=str(SHOTS / name))


def _reps(answer: dict[str, Any], side: str) -> list[str]:
    return [c["representative"]["text"] for c in answer[side]]


def test_explorer_deep_link_back_and_forward(explorer, client, answer) -> None:
    """Issue 31: ``/?q=...`` opened an empty page and a search left the URL as it was."""
    from urllib.parse import urlencode

    base, browser = explorer
    with _Page(browser) as p:
        page = p.page
        page.goto(f"{base}/?" + urlencode({"q": QUERY, "k": 5, "stance": "both"}))
        assert "default-src 'self'" in page.evaluate(
            "fetch('/').then(r => r.headers.get('content-security-policy'))"
        )
        p.wait_answer()
        assert p.representatives("pro") == _reps(answer, "pro")
        assert p.representatives("con") == _reps(answer, "con")
        assert page.input_value("#q") == QUERY and page.input_value("#k") == "5"
        p.shot("explorer-answer.png")
        # a search from the keyboard (Enter in the box) writes the address
        first = p.representatives("pro")
        page.fill("#q", SECOND)
        page.select_option("#stance", "pro")
        page.press("#q", "Enter")
        p.wait_answer(first)
        assert p.params() == {"q": SECOND, "k": "5", "stance": "pro"}
        second = client.get("/api/v1/query", params={"q": SECOND, "k": 5, "stance": "pro"})
        assert p.representatives("pro") == _reps(second.json(), "pro")
        assert page.locator("#con-column").is_hidden()
        # back: the first answer and its form again; forward: the second
        page.go_back()
        p.wait_answer(p.representatives("pro"))
        assert p.params() == {"q": QUERY, "k": "5", "stance": "both"}
        assert page.input_value("#q") == QUERY and page.input_value("#stance") == "both"
        assert p.representatives("pro") == _reps(answer, "pro")
        page.go_forward()
        p.wait_answer(p.representatives("pro"))
        assert p.params()["q"] == SECOND and page.input_value("#q") == SECOND
        # what the address says is what a fresh page answers
        url = page.url
        page.goto("about:blank")
        page.goto(url)
        p.wait_answer()
        assert p.representatives("pro") == _reps(second.json(), "pro")


def test_explorer_explains_in_words_from_the_keyboard(explorer, client) -> None:
    """Issue 31: "explain" dumped raw JSON; no source, stance provenance or PageRank in words."""
    from urllib.parse import urlencode

    base, browser = explorer
    with _Page(browser) as p:
        page = p.page
        page.goto(f"{base}/?" + urlencode({"q": QUERY, "k": 5}))
        p.wait_answer()
        # Tab from the search box reaches the first cluster's buttons; Enter opens the explanation
        page.focus("#q")
        for _ in range(20):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.textContent") == "why this rank":
                break
        else:
            raise AssertionError("Tab never reached a 'why this rank' button")
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline not in ("", "none"), "a focused button shows where the focus is"
        page.keyboard.press("Enter")
        first = page.locator("#pro > li.cluster").first
        box = first.locator(".explain")
        assert box.is_visible()
        page.wait_for_selector("#pro > li.cluster .lent li", timeout=30_000)
        text = box.inner_text()
        explained = client.get("/api/v1/query", params={"q": QUERY, "k": 5, "explain": True})
        ex = explained.json()["pro"][0]["explain"]
        assert box.locator("meter").count() == len(ex["routes"])
        for row in ex["routes"].values():
            assert (f"rank {row['rank']}: adds" if row["rank"] else "not found") in text
        # the default's linear fusion: each weighted feature by name, value and contribution
        assert "its conclusion matches the query" in text and "linear fusion" in text
        assert all(f"value {row['value']:.3f}, rank" in text for row in ex["routes"].values())
        assert "{" not in text
        assert ex["pagerank"] is not None and f"PageRank {ex['pagerank']:.4f}" in text
        assert "Stance: pro, from the data (as loaded). That is its stance towards" in text
        assert "Claims that lent mass" in text and f'"{QUERY}"' in text
        # sources: the args.me debate, linked where the data has an http(s) URL
        link = box.locator("a.source").first
        assert link.get_attribute("href", timeout=5_000).startswith("https://example.org/")
        assert "noopener" in link.get_attribute("rel")
        p.shot("explorer-explanation.png", first)


def test_explorer_graph_labels_do_not_overlap(explorer, client, answer) -> None:
    """Issue 31: the graph's labels overlapped at the centre."""
    import time

    base, browser = explorer
    with _Page(browser) as p:
        page = p.page
        p.graph_of_first_pro(base)
        key = answer["pro"][0]["representative"]["key"]
        graph = client.get("/api/v1/graph", params={"key": key, "depth": 2, "limit": 300})
        drawn, deadline = 0, time.monotonic() + 60
        while drawn < len(graph.json()["nodes"]) and time.monotonic() < deadline:
            page.wait_for_timeout(100)
            drawn = page.evaluate("window.argkbGraph ? window.argkbGraph.nodes().length : 0")
        assert drawn == len(graph.json()["nodes"]) > 5
        boxes = page.evaluate(
            "window.argkbGraph.nodes().map(n => n.boundingBox("
            "{includeNodes: true, includeEdges: false, includeLabels: true}))"
        )
        overlaps = [
            (i, j)
            for i, a in enumerate(boxes)
            for j, b in enumerate(boxes[:i])
            if a["x1"] < b["x2"] - 1 and b["x1"] < a["x2"] - 1
            and a["y1"] < b["y2"] - 1 and b["y1"] < a["y2"] - 1
        ]  # fmt: skip
        assert not overlaps, overlaps
        page.locator("#graph-panel").scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        p.shot("explorer-graph.png", page.locator("#graph-panel"))


def test_explorer_graph_errors_and_controls_a_user_meets(explorer, answer) -> None:
    """From a UX audit (2026-11-28): "graph" opened its panel far below the window (the button
    looked dead); an error left the previous answer on screen under it; a blank or over-long
    claim got the API's parameter jargon; the stance filter stayed live beside sentence pairs,
    which have none; every page load logged a 404 for the favicon."""
    from urllib.parse import urlencode

    base, browser = explorer
    with _Page(browser) as p:
        page = p.page
        p.graph_of_first_pro(base)
        page.wait_for_timeout(300)
        top = page.evaluate("document.getElementById('graph-panel').getBoundingClientRect().top")
        assert -1 <= top < 640, top  # scrolled to it (to a fraction of a pixel)
        assert page.evaluate("document.activeElement.id") == "graph-title"
        title = page.inner_text("#graph-title")
        assert len(title) <= len("Graph around: ") + 120
        # the nodes as a list of buttons: the graph from the keyboard
        page.wait_for_selector("#graph-nodes li", state="attached")
        drawn = page.evaluate("window.argkbGraph.nodes().length")
        assert page.locator("#graph-nodes li").count() == drawn
        page.click("#graph-panel summary")
        other = page.locator("#graph-nodes button:not([aria-current])").first
        target = other.get_attribute("title")
        other.focus()
        page.keyboard.press("Enter")
        page.wait_for_timeout(500)
        assert page.get_attribute("#graph-title", "title") == target
        # a blank claim: a plain sentence, and no answer left standing
        page.fill("#q", "   ")
        page.press("#q", "Enter")
        page.wait_for_timeout(300)
        assert page.inner_text("#message") == "Type a claim to search."
        assert p.representatives("pro") == [] and p.representatives("con") == []
        assert page.title() == "argkb explorer"
        # an over-long claim from an address: said in words, not as the API's parameter error
        page.goto(f"{base}/?" + urlencode({"q": "x" * 2001}))
        page.wait_for_timeout(300)
        assert page.inner_text("#message") == (
            "A claim is at most 2000 characters; this one has 2001."
        )
        # sentence pairs take no stance
        assert not page.locator("#stance").is_disabled()
        page.select_option("#view", "pairs")
        assert page.locator("#stance").is_disabled()
        page.select_option("#view", "clusters")
        assert not page.locator("#stance").is_disabled()
        # a count left at its view's default follows the view (key points: 5, as the CLI's)
        assert page.input_value("#k") == "10"
        page.select_option("#view", "keypoints")
        assert page.input_value("#k") == "5"
        page.select_option("#view", "clusters")
        assert page.input_value("#k") == "10"
        assert not [m for m in p.console if "404" in m or "Failed to load" in m], p.console


def test_explorer_on_a_narrow_window(explorer, answer) -> None:
    """A phone-sized window: one column, nothing wider than the screen."""
    from urllib.parse import urlencode

    base, browser = explorer
    with _Page(browser, width=390, height=844) as p:
        page = p.page
        page.goto(f"{base}/?" + urlencode({"q": QUERY, "k": 5}))
        p.wait_answer()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        pro = page.locator("#pro-column").bounding_box()
        con = page.locator("#con-column").bounding_box()
        assert pro and con and con["y"] >= pro["y"] + pro["height"] and con["x"] == pro["x"]


def test_keypoints_answer_matches_its_openapi_schema(client) -> None:
    """``/api/v1/keypoints``' answer is what its OpenAPI document says: each source of a key
    point's premise is ``{sid, title, url}`` (the document said a list of strings, and the
    property test, whose topics no argument concludes, never saw a 200)."""
    from argkb.serve import models

    response = client.get("/api/v1/keypoints", params={"topic": QUERY, "k": 2})
    assert response.status_code == 200, response.text
    report = response.json()
    rows = [row for part in report["stances"].values() for row in part["key_points"]]
    sources = [s for row in rows for e in [row["from"], *row["examples"]] for s in e["sources"]]
    assert sources and all(s.keys() == {"sid", "title", "url"} for s in sources)
    parsed = models.KeyPoints.model_validate(report)
    assert parsed.model_dump(by_alias=True) == report
    schema = client.get("/openapi.json").json()["components"]["schemas"]
    items = schema["KeyPointExample"]["properties"]["sources"]["items"]
    assert items == {"$ref": "#/components/schemas/MemberSource"}


def test_keypoints_in_the_api_and_the_explorer(explorer, client, demo_db, query_embedder) -> None:
    """Issue 32, item 1: a topic's key points in the HTTP API (what ``argkb keypoints TOPIC
    --json`` prints) and in the explorer's key point view (``view=keypoints``), per stance."""
    from urllib.parse import urlencode

    from argkb.keypoints.topic import keypoints_report

    response = client.get("/api/v1/keypoints", params={"topic": QUERY.upper(), "k": 2})
    assert response.status_code == 200, response.text
    report = response.json()
    assert report == keypoints_report(demo_db, QUERY.upper(), "both", 2, query_embedder)
    assert set(report["stances"]) == {"pro", "con"} and report["premises"] > 0
    for part in report["stances"].values():
        assert 1 <= len(part["key_points"]) <= 2
        for row in part["key_points"]:
            assert row["key_point"] in row["from"]["text"]  # a sentence of a premise
            assert all(e["text"] != row["key_point"] for e in row["examples"])
        prevalence = [row["prevalence"] for row in part["key_points"]]
        assert prevalence == sorted(prevalence, reverse=True)
    con_only = client.get("/api/v1/keypoints", params={"topic": QUERY, "stance": "con", "k": 2})
    assert set(con_only.json()["stances"]) == {"con"}
    base, browser = explorer
    with _Page(browser) as p:
        page = p.page
        page.goto(f"{base}/?" + urlencode({"q": QUERY, "k": 2, "view": "keypoints"}))
        page.wait_for_selector("#con li.keypoint", timeout=60_000)
        assert page.locator("#k-label").inner_text() == "key points"
        for side in ("pro", "con"):
            shown = page.locator(f"#{side} li.keypoint .key-point").all_inner_texts()
            assert shown == [row["key_point"] for row in report["stances"][side]["key_points"]]
        assert f"{report['premises']} premises conclude" in page.inner_text("#message")
        p.shot("explorer-keypoints.png")
        # back to the clusters: the same search answers with premise clusters again
        page.select_option("#view", "clusters")
        page.click("#search button[type=submit]")
        p.wait_answer()
        assert "view" not in p.params()


def test_snippets_in_the_api_and_the_explorer(explorer, client, demo_db) -> None:
    """Issue 30, item 3: after `argkb sentences`, an answer premise of more than two sentences
    comes with its best two sentences for the query (``snippets=true`` in the API; always asked
    for by the explorer, which shows them first and the full text one click away). Last in this
    module: it splits the demo graph's premises and deletes the sentences again. Also the
    explorer's sentence-pair view (``view=pairs``, GET /api/v1/pairs)."""
    from urllib.parse import urlencode

    from argkb.pipeline import split_sentences

    split_sentences(demo_db, None)
    try:
        plain = client.get("/api/v1/query", params={"q": QUERY, "k": 5}).json()
        asked = client.get("/api/v1/query", params={"q": QUERY, "k": 5, "snippets": "true"})
        assert asked.status_code == 200, asked.text
        snipped = asked.json()
        for side in ("pro", "con"):  # the ranking is the same; only the members gain snippets
            assert _reps(snipped, side) == _reps(plain, side)
            assert all("snippet" not in c["representative"] for c in plain[side])
        long = [c["representative"] for side in ("pro", "con") for c in snipped[side]
                if c["representative"]["snippet"]]  # fmt: skip
        assert long, "the demo answer has a representative of more than two sentences"
        for rep in long:
            assert len(rep["snippet"]) == 2
            assert all(sentence in rep["text"] for sentence in rep["snippet"])
        base, browser = explorer
        with _Page(browser) as p:
            page = p.page
            page.goto(f"{base}/?" + urlencode({"q": QUERY, "k": 5}))
            p.wait_answer()
            boxes = page.locator(".representative.snippet")
            assert boxes.count() == len(long)
            shown = boxes.first.locator(".snippet-text")
            button = boxes.first.locator("button.full-text")
            snippet_text = shown.inner_text()
            assert snippet_text.endswith("[...]")
            rep = next(r for r in long if snippet_text == " ".join(r["snippet"]) + " [...]")
            button.click()
            assert button.get_attribute("aria-expanded") == "true"
            assert shown.inner_text() == rep["text"]
            p.shot("explorer-snippets.png")
            button.click()
            assert shown.inner_text() == snippet_text
            # the sentence-pair view: what GET /api/v1/pairs answers, top sentence in bold
            pairs = client.get("/api/v1/pairs", params={"q": QUERY, "k": 5, "explain": "true"}
                               ).json()["pairs"]  # fmt: skip
            assert pairs
            page.select_option("#view", "pairs")
            page.click("#search button[type=submit]")
            page.wait_for_selector("#pairs li.pair", timeout=30_000)
            assert p.params().get("view") == "pairs"
            assert page.locator("#pro-column").is_hidden()
            tops = page.locator("#pairs li.pair .top-sentence").all_inner_texts()
            assert tops == [pair["sentences"][pair["top"]]["text"] for pair in pairs]
            assert page.locator("#k-label").inner_text() == "pairs"
            # hovering a score says what made it: the pipeline's weighted features
            why = page.locator("#pairs li.pair .pair-score").first.get_attribute("title") or ""
            explain = pairs[0]["explain"]
            assert why.startswith(f"{explain['model']} {explain['top_score']:.3f}; score = ")
            assert all(f"x {name} {explain['features'][name]:.3f}" in why
                       for name in explain["weights"])  # fmt: skip
            p.shot("explorer-pairs.png")
    finally:
        demo_db.execute_query("MATCH (s:Sentence) DETACH DELETE s")
