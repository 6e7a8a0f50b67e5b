"""The ASGI application of ``argkb serve`` (FastAPI; docs/serve.md says why).

One application holds one driver (wrapped in :class:`~argkb.serve.store.TimedDriver`, so every
database call has a timeout), one :class:`~argkb.embed.model.Embedder` loaded once, and the
stance-alignment estimator the CLI uses by default. Endpoints are plain functions, which the
framework runs in its thread pool; each query builds a light
:class:`~argkb.retrieve.engine.QueryEngine` over the shared parts.

Every error is JSON, ``{"status", "error", "message"}`` (:class:`~argkb.serve.models.ErrorBody`):
422 for a bad parameter, 404 for an unknown key, 401 without the token, 409 when the graph
cannot answer yet, 503 when Neo4j is unreachable, 504 when a database call times out, 500 for a
bug; a request the HTTP server cannot parse gets the same body from
:class:`~argkb.serve.protocol.JsonErrorProtocol`. Every answer carries the security headers of
:mod:`argkb.serve.protocol`. The OpenAPI document is ``/openapi.json``; FastAPI's ``/docs`` and
``/redoc`` pages are off, as they load scripts and fonts from CDNs.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path as PathType
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from argkb.errors import ArgKBError
from argkb.jsonout import to_json
from argkb.retrieve.engine import (
    DEFAULT_RANKER,
    QueryEngine,
    QueryResult,
    RankerName,
    Settings,
    StanceAlignment,
    StanceChoice,
    always_aligned,
)
from argkb.serve import models
from argkb.serve.protocol import SECURITY_HEADERS, SecurityHeaders
from argkb.serve.store import NotFound, Store, TimedDriver

if TYPE_CHECKING:
    import neo4j

    from argkb.embed.model import Embedder

logger = logging.getLogger(__name__)

STATIC = PathType(__file__).resolve().parent / "static"
"""The explorer page and its assets (Cytoscape.js vendored from npm; no CDN at run time)."""
PUBLIC = ("/", "/static/")
"""What the token does not guard: the explorer page and its assets, which hold no data (the page
sends the token with each API call)."""
MAX_QUERY_CHARS = 2000
MAX_K = 100
MAX_DEPTH = 3
MAX_LIST = 1000
DEFAULT_TIMEOUT = 10.0
COUNTS_TTL = 10.0
"""Seconds the query engine reuses the graph's sizes (claims, claim clusters) between reads."""

_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": models.ErrorBody, "description": what}
    for status, what in (
        (401, "Missing or wrong bearer token."),
        (404, "No such unit, claim or cluster."),
        (409, "The graph cannot answer yet (e.g. nothing embedded)."),
        (422, "A parameter is missing or out of range."),
        (503, "Neo4j is unreachable."),
        (504, "A database call ran past the timeout."),
    )
}


class ApiError(Exception):
    """An error answered as JSON with ``status``."""

    def __init__(self, status: int, error: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.error = error
        self.message = message


def error_response(status: int, error: str, message: str, **headers: str) -> JSONResponse:
    body = models.ErrorBody(status=status, error=error, message=message)
    return JSONResponse(body.model_dump(), status_code=status, headers=headers or None)


def _argkb_version() -> str:
    try:
        return version("argkb")
    except PackageNotFoundError:  # running from a checkout that was never installed
        return "unknown"


def _model_name(embedder: Embedder) -> str:
    """The model's folder name (with its parent's when the folder is just called ``model``)."""
    path = embedder.model_path
    return f"{path.parent.name}/{path.name}" if path.name == "model" else path.name


def _describe_validation(err: RequestValidationError) -> str:
    parts = []
    for problem in err.errors():
        where = [str(p) for p in problem.get("loc", ()) if p not in ("query", "path")]
        name = ".".join(where) or "request"
        parts.append(f"parameter {name!r}: {problem.get('msg', 'invalid')}")
    return "; ".join(parts) + " (the OpenAPI document at /openapi.json lists every parameter)"


def create_app(
    driver: neo4j.Driver,
    embedder: Embedder,
    *,
    database: str | None = None,
    token: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    alignment: StanceAlignment | None = None,
    settings: Settings | None = None,
) -> FastAPI:
    """The API over ``driver`` and ``embedder``.

    Parameters
    ----------
    driver : neo4j.Driver
        Shared by every request; wrapped so that each database call has ``timeout`` seconds.
    embedder : Embedder
        The query embedder; load its model before serving so no request pays for it.
    database : str, optional
        The Neo4j database; default: the server's.
    token : str, optional
        When given, every endpoint (the OpenAPI document included) needs
        ``Authorization: Bearer <token>``; only the explorer page and its static assets
        (:data:`PUBLIC`) do not, as they hold no data.
    timeout : float
        Seconds each database transaction may take.
    alignment : StanceAlignment, optional
        P(q aligned c); the CLI passes ``model_alignment(embedder)``, its default. Default here:
        every claim aligned.
    settings : Settings, optional
        Query engine parameters; default: the tuned ones.
    """
    from neo4j.exceptions import Neo4jError, ServiceUnavailable, SessionExpired

    timed = TimedDriver(driver, timeout).as_driver()
    store = Store(timed, database)
    aligner = alignment or always_aligned
    app = FastAPI(
        title="argkb",
        version=_argkb_version(),
        docs_url=None,  # Swagger UI and ReDoc load from CDNs: not offline, not under the CSP
        redoc_url=None,
        description=(
            "Ranked, deduplicated pro and con premise clusters for a claim, and the argument "
            "graph behind them. Errors are JSON objects with `status`, `error` and `message`."
            + (" Every endpoint needs `Authorization: Bearer <token>`." if token else "")
        ),
    )
    app.state.store = store
    # one engine for every request: its thread pool and the graph's sizes (re-read every
    # COUNTS_TTL seconds, so a corpus loaded meanwhile is counted) are shared
    engine = QueryEngine(timed, embedder, database=database, settings=settings,
                         alignment=aligner, counts_ttl=COUNTS_TTL)  # fmt: skip

    @app.middleware("http")
    async def require_token(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        path = request.url.path
        public = path == "/" or path.startswith(PUBLIC[1])
        if token is not None and not public:
            scheme, _, given = request.headers.get("authorization", "").partition(" ")
            if scheme.lower() != "bearer" or not secrets.compare_digest(
                given.strip().encode(), token.encode()
            ):
                return error_response(
                    401,
                    "unauthorized",
                    "this argkb serve needs a token: send 'Authorization: Bearer <token>' "
                    "(the --token / ARGKB_SERVE_TOKEN it was started with)",
                    **{"WWW-Authenticate": "Bearer"},
                )
        return await call_next(request)

    app.add_middleware(SecurityHeaders)  # outermost: the token's 401 gets the headers too

    @app.exception_handler(ApiError)
    async def on_api_error(request: Request, err: ApiError) -> JSONResponse:
        return error_response(err.status, err.error, err.message)

    @app.exception_handler(NotFound)
    async def on_not_found(request: Request, err: NotFound) -> JSONResponse:
        return error_response(404, "not_found", str(err))

    @app.exception_handler(ArgKBError)
    async def on_argkb_error(request: Request, err: ArgKBError) -> JSONResponse:
        return error_response(409, "cannot_answer", str(err))

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, err: RequestValidationError) -> JSONResponse:
        return error_response(422, "invalid_parameter", _describe_validation(err))

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, err: StarletteHTTPException) -> JSONResponse:
        message = str(err.detail)
        if err.status_code == 404:
            message = f"no endpoint {request.url.path}: see /openapi.json"
        elif err.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}: use GET"
        return error_response(err.status_code, "http_error", message)

    @app.exception_handler(Exception)
    async def on_bug(request: Request, err: Exception) -> JSONResponse:
        # answered outside the middleware (so the security headers are added here); the
        # server logs the traceback
        return error_response(
            500, "internal_error", "argkb serve failed on this request (see its log)",
            **SECURITY_HEADERS,
        )  # fmt: skip

    @app.exception_handler(ServiceUnavailable)
    @app.exception_handler(SessionExpired)
    async def on_unreachable(request: Request, err: Exception) -> JSONResponse:
        logger.warning("Neo4j unreachable: %s", err)
        return error_response(
            503,
            "database_unavailable",
            "Neo4j is unreachable: start it (argkb server start) or check --uri / NEO4J_URI",
        )

    @app.exception_handler(Neo4jError)
    async def on_neo4j(request: Request, err: Neo4jError) -> JSONResponse:
        code = getattr(err, "code", None) or ""
        if "TimedOut" in code or "Terminated" in code:
            return error_response(
                504,
                "database_timeout",
                f"a database call took longer than {timeout:g} s: ask a narrower question "
                "(smaller k or depth) or start argkb serve with a larger --timeout",
            )
        logger.error("Neo4j error: %s", err)
        return error_response(
            503, "database_error", f"Neo4j refused the request ({code or type(err).__name__})"
        )

    # -- endpoints ------------------------------------------------------------------------------

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def explorer() -> FileResponse:
        """The explorer page: search, pro and con columns, graph neighbourhoods."""
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get("/healthz", response_model=models.Health, responses=_ERRORS, tags=["service"])
    def healthz() -> models.Health:
        """The service is up and Neo4j answers."""
        store.ping()
        return models.Health(status="ok")

    @app.get(
        "/api/v1/status", response_model=models.ServiceStatus, responses=_ERRORS, tags=["service"]
    )
    def status() -> models.ServiceStatus:
        """What the graph holds, and whether it can answer queries."""
        graph = models.GraphStatus(**store.status())
        hint = None
        if graph.claims == 0:
            hint = "load a corpus: argkb load argsme <file>"
        elif graph.embedded_units == 0:
            hint = "embed the units: argkb embed (then argkb cluster)"
        return models.ServiceStatus(
            version=_argkb_version(),
            default_ranker=DEFAULT_RANKER,
            model=_model_name(embedder),
            database=database,
            graph=graph,
            ready=hint is None,
            hint=hint,
        )

    @app.get("/api/v1/query", response_model=QueryResult, responses=_ERRORS, tags=["query"])
    def query(
        q: Annotated[
            str,
            Query(
                min_length=1,
                max_length=MAX_QUERY_CHARS,
                description="The claim to answer, e.g. 'We should abandon fossil fuels'.",
            ),
        ],
        k: Annotated[int, Query(ge=1, le=MAX_K, description="Clusters per stance.")] = 10,
        ranker: Annotated[
            RankerName | None, Query(description="Default: argkb's default ranker.")
        ] = None,
        stance: Annotated[StanceChoice, Query(description="Which side(s) to answer.")] = "both",
        explain: Annotated[bool, Query(description="Attach the numbers behind each rank.")] = False,
    ) -> Response:
        """Ranked pro and con premise clusters for a claim: the result of `argkb query --json`."""
        if not q.strip():
            raise ApiError(
                422,
                "invalid_parameter",
                "parameter 'q' is blank: ask a claim, e.g. 'We should abandon fossil fuels'",
            )
        result = engine.query(
            q, k=k, ranker=ranker or DEFAULT_RANKER, stance=stance, explain=explain
        )
        return Response(to_json(result), media_type="application/json")

    @app.get("/api/v1/units/{key:path}", response_model=models.Unit, responses=_ERRORS,
             tags=["browse"])  # fmt: skip
    def unit(
        key: Annotated[str, Path(description="The unit's key (a result's `key`).")],
        limit: Annotated[
            int, Query(ge=1, le=MAX_LIST, description="At most this many premise uses.")
        ] = 100,
    ) -> models.Unit:
        """One argument unit: text, PageRank, clusters and the arguments it serves."""
        return models.Unit(**store.unit(key, limit))

    @app.get("/api/v1/claims/{key:path}/arguments", response_model=models.ClaimArguments,
             responses=_ERRORS, tags=["browse"])  # fmt: skip
    def claim_arguments(
        key: Annotated[str, Path(description="The claim's key.")],
        limit: Annotated[int, Query(ge=1, le=MAX_LIST, description="At most this many.")] = 100,
    ) -> models.ClaimArguments:
        """The arguments that conclude a claim, with their premises and stances."""
        return models.ClaimArguments(**store.claim_arguments(key, limit))

    @app.get("/api/v1/clusters/{cid:path}", response_model=models.Cluster, responses=_ERRORS,
             tags=["browse"])  # fmt: skip
    def cluster(
        cid: Annotated[str, Path(description="The cluster id, e.g. 'premise:7'.")],
        limit: Annotated[int, Query(ge=1, le=MAX_LIST, description="At most this many.")] = 100,
    ) -> models.Cluster:
        """A claim or premise cluster (`argkb cluster`) and its members."""
        return models.Cluster(**store.cluster(cid, limit))

    @app.get("/api/v1/graph", response_model=models.Graph, responses=_ERRORS, tags=["browse"])
    def graph(
        key: Annotated[str, Query(min_length=1, description="The unit to start from.")],
        depth: Annotated[int, Query(ge=1, le=MAX_DEPTH, description="Hops from the unit.")] = 1,
        limit: Annotated[
            int, Query(ge=1, le=MAX_LIST, description="At most this many nodes.")
        ] = 200,
    ) -> models.Graph:
        """The neighbourhood of a unit as nodes and edges, for drawing."""
        return models.Graph(**store.graph(key, depth, limit))

    return app
