"""The ASGI application of ``argkb serve`` (FastAPI; docs/serve.md says why).

One application holds one driver (wrapped in :class:`~argkb.serve.store.TimedDriver`, so every
database call has a timeout), one :class:`~argkb.embed.model.Embedder` loaded once, and the
stance-alignment estimator the CLI uses by default. :func:`create_app` puts them on ``app.state``,
with one :class:`~argkb.query.engine.QueryEngine` over them that every query shares; the
endpoints, in :mod:`argkb.serve.routes`, read them from there. This module holds what wraps the
endpoints: the host check, the bearer-token middleware and the error handlers. Each endpoint
runs its blocking work in threads of its own (:func:`argkb.serve.routes.blocking`), with a
deadline: a Neo4j that accepts connections but never answers gets a 504, not a hung request.

Every error is JSON, ``{"status", "error", "message"}`` (:class:`~argkb.serve.models.ErrorBody`):
422 for a bad parameter, 404 for an unknown key, 401 without the token, 409 when the graph
cannot answer yet, 503 when Neo4j is unreachable, 504 when a database call times out or an
endpoint runs past its deadline, 400 for a ``Host`` the server does not answer to, 500 for a
bug; a request the HTTP server cannot parse gets the same body from
:class:`~argkb.serve.protocol.JsonErrorProtocol`. Every answer carries the security headers of
:mod:`argkb.serve.protocol`. The OpenAPI document is ``/openapi.json``; FastAPI's ``/docs`` and
``/redoc`` pages are off, as they load scripts and fonts from CDNs.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from argkb.errors import ApiError as ApiError  # raised by the routes; importable from here too
from argkb.errors import ArgKBError, NotFound
from argkb.query.alignment import StanceAlignment
from argkb.query.engine import QueryEngine
from argkb.query.settings import QuerySettings
from argkb.serve import models
from argkb.serve.protocol import SECURITY_HEADERS, HeadAsGet, IgnoreRanges, SecurityHeaders
from argkb.serve.routes import STATIC, argkb_version, browse_router, query_router, service_router
from argkb.serve.store import Store, TimedDriver

if TYPE_CHECKING:
    import neo4j

    from argkb.embed.model import Embedder

logger = logging.getLogger(__name__)

PUBLIC = ("/", "/static/")
"""What the token does not guard: the explorer page and its assets, which hold no data (the page
sends the token with each API call)."""
DEFAULT_TIMEOUT = 10.0
DEADLINE_TIMEOUTS = 2.0
"""An endpoint's deadline in ``timeout``s: past it the request gets a 504 even when the database
never answers (a stalled Neo4j keeps a connection open without replying, which no transaction
timeout ends)."""
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
COUNTS_TTL = 10.0
"""Seconds the query engine reuses the graph's sizes (claims, claim clusters) between reads."""


def warm_up(app: FastAPI) -> str:
    """Answer a few queries with the app's engine before serving
    (:func:`argkb.query.warmup.warm_up`), so that the first requests do not pay for a Neo4j
    server's first uses of its indexes and statements. Returns what to tell the user; a failure
    is told, not raised (the requests then say it themselves)."""
    from argkb.query.warmup import warm_up as answer_warm_up_queries

    return answer_warm_up_queries(app.state.engine, then="serving anyway")


def create_app(
    driver: neo4j.Driver,
    embedder: Embedder,
    *,
    database: str | None = None,
    token: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    alignment: StanceAlignment | None = None,
    settings: QuerySettings | None = None,
    hosts: tuple[str, ...] | None = None,
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
        P(q aligned c), an estimator of your own; default: the one ``settings.alignment`` names.
    settings : QuerySettings, optional
        How queries are answered; default: argkb's default (:data:`argkb.query.settings.DEFAULT`),
        as ``argkb query`` answers.
    hosts : tuple of str, optional
        The host names a request's ``Host`` header may name (any port); others get a 400, so
        that a web page on another name that resolves to this machine (DNS rebinding) cannot
        read the API. ``argkb serve`` on a loopback address passes :data:`LOOPBACK_NAMES` and
        its ``--host``; default: any host.
    """
    timed = TimedDriver(driver, timeout).as_driver()
    app = FastAPI(
        title="argkb",
        version=argkb_version(),
        docs_url=None,  # Swagger UI and ReDoc load from CDNs: not offline, not under the CSP
        redoc_url=None,
        redirect_slashes=False,  # /api/v1/query/ is a JSON 404, not an empty 307
        description=(
            "Ranked, deduplicated pro and con premise clusters for a claim, and the argument "
            "graph behind them. Errors are JSON objects with `status`, `error` and `message`."
            + (" Every endpoint needs `Authorization: Bearer <token>`." if token else "")
        ),
    )
    # what the middleware, the handlers and the routes' dependencies read
    app.state.store = Store(timed, database)
    # one engine for every request: its thread pool and the graph's sizes (re-read every
    # COUNTS_TTL seconds, so a corpus loaded meanwhile is counted) are shared
    app.state.engine = QueryEngine(timed, embedder, database=database, settings=settings,
                                   alignment=alignment,
                                   counts_ttl=COUNTS_TTL)  # fmt: skip
    app.state.embedder = embedder
    app.state.database = database
    app.state.token = token
    app.state.timeout = timeout
    app.state.deadline = DEADLINE_TIMEOUTS * timeout
    app.state.hosts = None if hosts is None else {h.strip("[]").lower() for h in hosts}

    app.middleware("http")(require_token)
    app.middleware("http")(refuse_cross_site)
    app.middleware("http")(require_host)  # added last, so it runs before the others
    app.add_middleware(IgnoreRanges)
    app.add_middleware(HeadAsGet)
    app.add_middleware(SecurityHeaders)  # outermost: the token's 401 gets the headers too
    _add_error_handlers(app)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    for router in (service_router, query_router, browse_router):
        app.include_router(router)
    return app


def error_response(status: int, error: str, message: str, **headers: str) -> JSONResponse:
    body = models.ErrorBody(status=status, error=error, message=message)
    return JSONResponse(body.model_dump(), status_code=status, headers=headers or None)


def host_name(header: str) -> str:
    """The name in a ``Host`` header, without its port and an IPv6 address's brackets."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    return header.rpartition(":")[0] if header.count(":") == 1 else header


async def require_host(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """400 for a ``Host`` header that names none of ``app.state.hosts`` (None: every host)."""
    hosts: set[str] | None = request.app.state.hosts
    given = request.headers.get("host", "")
    if hosts is not None and host_name(given) not in hosts:
        return error_response(
            400,
            "unknown_host",
            f"this argkb serve answers requests to {', '.join(sorted(hosts))}, not to "
            f"{given!r}: open it at the address it printed when it started",
        )
    return await call_next(request)


async def refuse_cross_site(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """403 for an API request a browser says another site's page made (``Sec-Fetch-Site:
    cross-site``; an ``<img src=".../api/v1/query?...">`` there): it cannot read the answer
    (no CORS), but it made this server work. The explorer's own requests are same-origin;
    clients that are not browsers send no such header."""
    if request.url.path.startswith("/api/") and (
        request.headers.get("sec-fetch-site", "").lower() == "cross-site"
    ):
        return error_response(
            403,
            "cross_site",
            "this argkb serve answers its own page and programs, not pages of other sites",
        )
    return await call_next(request)


async def require_token(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """401 for a request without ``app.state.token`` as its bearer token, unless :data:`PUBLIC`
    (no token set: every request passes)."""
    token: str | None = request.app.state.token
    path = request.url.path
    public = path == "/" or path.startswith(PUBLIC[1])
    if token is not None and not public:
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not secrets.compare_digest(
            given.strip().encode("latin-1", "replace"), token.encode()
        ):
            return error_response(
                401,
                "unauthorized",
                "this argkb serve needs a token: send 'Authorization: Bearer <token>' "
                "(the --token / ARGKB_SERVE_TOKEN it was started with)",
                **{"WWW-Authenticate": "Bearer"},
            )
    return await call_next(request)


# -- error handlers --------------------------------------------------------------------------


def _add_error_handlers(app: FastAPI) -> None:
    """Answer every error as an :class:`~argkb.serve.models.ErrorBody`.

    The framework picks the handler of the nearest class in the error's MRO: :class:`ApiError`
    (its own status) and :class:`NotFound` (404) keep theirs although both subclass
    :class:`ArgKBError`, whose handler answers 409.
    """
    from neo4j.exceptions import DriverError, Neo4jError, ServiceUnavailable, SessionExpired

    for kind, handler in (
        (ApiError, on_api_error),
        (NotFound, on_not_found),
        (ArgKBError, on_argkb_error),
        (RequestValidationError, on_invalid),
        (StarletteHTTPException, on_http),
        (Exception, on_bug),
        (SessionExpired, on_unreachable),
        (ServiceUnavailable, on_unreachable),
        (Neo4jError, on_neo4j),
        (DriverError, on_driver),
    ):
        app.exception_handler(kind)(handler)


async def on_api_error(request: Request, err: ApiError) -> JSONResponse:
    return error_response(err.status, err.error, err.message, **err.headers)


async def on_not_found(request: Request, err: NotFound) -> JSONResponse:
    return error_response(404, "not_found", str(err))


async def on_argkb_error(request: Request, err: ArgKBError) -> JSONResponse:
    return error_response(409, "cannot_answer", str(err))


async def on_invalid(request: Request, err: RequestValidationError) -> JSONResponse:
    return error_response(422, "invalid_parameter", _describe_validation(err))


def _describe_validation(err: RequestValidationError) -> str:
    parts = []
    for problem in err.errors():
        where = [str(p) for p in problem.get("loc", ()) if p not in ("query", "path")]
        name = ".".join(where) or "request"
        if problem.get("type") == "string_pattern_mismatch":  # routes.TEXT_PATTERN, q and topic
            parts.append(f"parameter {name!r} holds a control character: send the text only")
        else:
            parts.append(f"parameter {name!r}: {problem.get('msg', 'invalid')}")
    return "; ".join(parts) + " (the OpenAPI document at /openapi.json lists every parameter)"


async def on_http(request: Request, err: StarletteHTTPException) -> JSONResponse:
    message = str(err.detail)
    if err.status_code == 404:
        message = f"no endpoint {request.url.path}: see /openapi.json"
    headers = dict(err.headers or {})
    if err.status_code == 405:
        message = f"{request.method} is not allowed on {request.url.path}: use GET or HEAD"
        headers["Allow"] = "GET, HEAD"  # HEAD is answered as GET (protocol.HeadAsGet)
    return error_response(err.status_code, "http_error", message, **headers)


async def on_bug(request: Request, err: Exception) -> JSONResponse:
    # answered outside the middleware (so the security headers are added here); the server logs
    # the traceback
    return error_response(
        500, "internal_error", "argkb serve failed on this request (see its log)",
        **SECURITY_HEADERS,
    )  # fmt: skip


async def on_unreachable(request: Request, err: Exception) -> JSONResponse:
    logger.warning("Neo4j unreachable: %s", err)
    return error_response(
        503,
        "database_unavailable",
        "Neo4j is unreachable: start it (argkb server start) or check --uri / NEO4J_URI",
    )


async def on_driver(request: Request, err: Exception) -> JSONResponse:
    """The driver's own failures: above all no free connection in its pool, when the threads of
    earlier requests, abandoned at their deadline, still wait on a stalled Neo4j with theirs (a
    500, "a bug", before)."""
    from neo4j.exceptions import ConnectionPoolError  # ConnectionAcquisitionTimeoutError's base

    logger.warning("Neo4j driver: %s", err)
    if isinstance(err, ConnectionPoolError):
        return error_response(
            504,
            "database_timeout",
            "no connection to Neo4j was free in time: earlier requests still wait on it, so it "
            "is stalled or overloaded (check it with argkb status)",
        )
    return error_response(503, "database_error", f"the Neo4j driver failed ({type(err).__name__})")


async def on_neo4j(request: Request, err: Exception) -> JSONResponse:
    timeout: float = request.app.state.timeout
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
