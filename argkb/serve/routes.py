"""The endpoints of ``argkb serve``: three routers that :func:`argkb.serve.app.create_app`
includes, in this order (the OpenAPI document lists them so).

- :data:`service_router`: the explorer page, ``/healthz`` and ``/api/v1/status`` (is the service
  up, what does the graph hold, can it answer);
- :data:`query_router`: ``/api/v1/query``, the query engine's answer, as ``argkb query --json``
  prints it, ``/api/v1/pairs``, sentence pairs as ``argkb query --pairs --json`` prints them,
  and ``/api/v1/keypoints``, a topic's key points as ``argkb keypoints TOPIC --json`` prints them;
- :data:`browse_router`: a unit, a claim's arguments, a cluster, a unit's neighbourhood: the
  :class:`~argkb.serve.store.Store` reads behind the explorer's graph.

The routers share one module rather than a ``routes/`` package: together they are some three hundred
lines, all read the same shared parts through the dependencies below, and a package would be one
more entry in pyproject's package list for no reader's gain. The parts (store, engine, embedder,
database) live on ``app.state``, put there by ``create_app``; the dependencies are ``async`` so
that fetching them costs no trip through the thread pool. The endpoints are plain functions (they
block on Neo4j and on the embedding model) made asynchronous by :func:`blocking`, which runs them
in the application's database threads with a deadline.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path as PathType
from typing import Annotated, Any, TypeVar

import anyio
from anyio import CapacityLimiter
from anyio.lowlevel import RunVar
from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.responses import FileResponse

from argkb.embed.model import Embedder
from argkb.errors import ApiError
from argkb.jsonout import to_json
from argkb.query.engine import QueryEngine
from argkb.query.settings import MAX_QUERY_CHARS, RankerName, StanceChoice
from argkb.query.types import QueryResult
from argkb.sentences.answer import answer_pairs
from argkb.serve import models
from argkb.serve.store import Store

STATIC = PathType(__file__).resolve().parent / "static"
"""The explorer page and its assets (Cytoscape.js vendored from npm; no CDN at run time)."""
MAX_K = 100
MAX_DEPTH = 3
MAX_LIST = 1000
MAX_KEY = 1000
"""Characters of a unit key or cluster id (keys are short: ``t:`` and 24 hex digits, or a
source's own id)."""
BUSY_RETRY_SECONDS = 5
ASK = "ask a claim, e.g. 'We should abandon fossil fuels'"
TEXT_PATTERN = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$"
"""A claim or topic holds no control character (tab and line breaks aside); in the OpenAPI
document too, so that clients (and the property test) know it."""
UNIT_KEY = "The unit's key (a result's `key`)."
CLUSTER_ID = "The cluster id, e.g. 'premise:7'."
START_UNIT = "The unit to start from."

ERROR_STATUSES = {
    401: "Missing or wrong bearer token.",
    403: "A page of another site made the request (Sec-Fetch-Site: cross-site).",
    404: "No such unit, claim, cluster or topic.",
    409: "The graph cannot answer yet (e.g. nothing embedded).",
    422: "A parameter is missing, unknown, repeated, out of range or not valid UTF-8 text.",
    503: "Neo4j is unreachable, or argkb serve is busy with other requests (Retry-After).",
    504: "A database call ran past the timeout.",
}
"""Every error status an endpoint of the API may answer, each an
:class:`~argkb.serve.models.ErrorBody`. What any request may get, whatever its endpoint, is not
listed per endpoint: 400, 414 and 431 for a request that cannot be read, 404 for no such
endpoint, 405 for a method other than GET or HEAD."""


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of an endpoint that may answer ``statuses``, besides those
    every endpoint may (401 without the token, 503 and 504 from the database); 403 for those
    under ``/api/`` (:func:`argkb.serve.app.refuse_cross_site`)."""
    return {
        status: {"model": models.ErrorBody, "description": ERROR_STATUSES[status]}
        for status in sorted({401, 503, 504, *statuses})
    }


SERVICE_ERRORS = errors(403)
QUERY_ERRORS = errors(403, 409, 422)
BROWSE_ERRORS = errors(403, 404, 422)


def argkb_version() -> str:
    """The installed argkb's version, ``unknown`` in a checkout that was never installed."""
    try:
        return version("argkb")
    except PackageNotFoundError:
        return "unknown"


def _model_name(embedder: Embedder) -> str:
    """The model's folder name (with its parent's when the folder is just called ``model``)."""
    path = embedder.model_path
    return f"{path.parent.name}/{path.name}" if path.name == "model" else path.name


T = TypeVar("T")
DATABASE_THREADS = 32
"""Threads for the endpoints' blocking work, apart from the ones that serve the page and its
files, so that requests stuck on a stalled Neo4j never hold the page up."""
_THREADS: RunVar[CapacityLimiter] = RunVar("argkb_serve_database_threads")
_HEALTH_THREADS: RunVar[CapacityLimiter] = RunVar("argkb_serve_health_threads")


def _limiter(var: RunVar[CapacityLimiter], threads: int) -> CapacityLimiter:
    """The limiter in ``var``, one per event loop (an application served by two servers, as in
    the tests, must not share one across loops)."""
    try:
        return var.get()
    except LookupError:
        limiter = CapacityLimiter(threads)
        var.set(limiter)
        return limiter


def database_threads() -> CapacityLimiter:
    """The limiter of :data:`DATABASE_THREADS`."""
    return _limiter(_THREADS, DATABASE_THREADS)


def health_threads() -> CapacityLimiter:
    """Two threads of ``/healthz``'s own, so that a liveness probe does not queue behind the
    queries (under load it answered 504, blaming Neo4j, which was fine)."""
    return _limiter(_HEALTH_THREADS, 2)


def blocking(
    endpoint: Callable[..., T],
    limiter: Callable[[], CapacityLimiter] | None = None,
    *,
    slow: str | None = None,
) -> Callable[..., Awaitable[T]]:
    """``endpoint`` (a plain function) as an asynchronous one that runs it in the database threads
    (``limiter``, default :func:`database_threads`) and answers 504 when it has not returned
    within ``app.state.deadline`` seconds, or 503 ``busy`` when it never got a thread by then
    (the other requests held them all). The thread is then left to finish on its own (the driver
    ends it when the connection fails); the request does not wait for it. ``slow``: what else
    than Neo4j can take that long in this endpoint, for the 504's message. The framework reads
    the endpoint's parameters from the returned function's signature: the original ones and the
    request."""
    signature = inspect.signature(endpoint)
    request_parameter = inspect.Parameter("request", inspect.Parameter.KEYWORD_ONLY,
                                          annotation=Request)  # fmt: skip

    @functools.wraps(endpoint)
    async def in_thread(*args: Any, request: Request, **kwargs: Any) -> T:
        state = request.app.state
        started: list[bool] = []

        def run() -> T:
            started.append(True)
            return endpoint(*args, **kwargs)

        try:
            with anyio.fail_after(state.deadline):
                threads = (limiter or database_threads)()
                return await anyio.to_thread.run_sync(run, limiter=threads, abandon_on_cancel=True)
        except TimeoutError:
            if not started:
                raise ApiError(
                    503, "busy",
                    f"argkb serve is busy: no thread was free for this request within "
                    f"{state.deadline:g} s (Neo4j was not asked); retry later",
                    headers={"Retry-After": str(BUSY_RETRY_SECONDS)},
                ) from None  # fmt: skip
            cause = f"{slow}, or Neo4j is stalled" if slow else "Neo4j is stalled or overloaded"
            raise ApiError(
                504,
                "database_timeout",
                f"no answer within {state.deadline:g} s: {cause} "
                "(check it with argkb status) or start argkb serve with a larger --timeout",
            ) from None

    parameters = [*signature.parameters.values(), request_parameter]
    in_thread.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    return in_thread


# -- the shared parts, from app.state ----------------------------------------------------------


async def get_store(request: Request) -> Store:
    """The browse reads (read from ``app.state`` on each request: tests may replace a read)."""
    store: Store = request.app.state.store
    return store


async def get_engine(request: Request) -> QueryEngine:
    """The one query engine of the application (its thread pool and graph sizes are shared)."""
    engine: QueryEngine = request.app.state.engine
    return engine


async def get_embedder(request: Request) -> Embedder:
    embedder: Embedder = request.app.state.embedder
    return embedder


async def get_database(request: Request) -> str | None:
    database: str | None = request.app.state.database
    return database


async def known_parameters(request: Request) -> None:
    """422 for a query parameter an API endpoint does not take (a misspelt ``rankr`` would
    otherwise be ignored and the default answered). Not for the explorer page, whose address
    holds the form's fields (``/?q=...&view=pairs``) for its script."""
    route = request.scope.get("route")
    dependant = getattr(route, "dependant", None)
    if dependant is None or not request.url.path.startswith("/api/"):
        return
    _check_utf8(request)
    known = sorted(param.alias for param in dependant.query_params)
    unknown = [name for name in request.query_params if name not in known]
    if unknown:
        raise ApiError(
            422,
            "invalid_parameter",
            f"unknown parameter {unknown[0]!r}: {request.url.path} takes "
            + (", ".join(known) or "no parameters"),
        )
    repeated = [name for name in known if len(request.query_params.getlist(name)) > 1]
    if repeated:  # the last one would win without a word
        message = f"parameter {repeated[0]!r} is given more than once: give it once"
        raise ApiError(422, "invalid_parameter", message)


def _check_utf8(request: Request) -> None:
    """422 for an address whose percent-encoded bytes are not UTF-8 (``%ff``): the server would
    read them as U+FFFD and answer a question nobody asked (``argkb query`` refuses such text)."""
    from urllib.parse import unquote_to_bytes

    parts = [("the address", request.scope.get("raw_path", b""))]
    for pair in request.scope.get("query_string", b"").split(b"&"):
        name, _, value = pair.partition(b"=")
        parts.append((f"parameter {unquote_to_bytes(name).decode('utf-8', 'replace')!r}", value))
    for what, raw in parts:
        try:
            unquote_to_bytes(raw.replace(b"+", b" ")).decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError(422, "invalid_parameter",
                           f"{what} is not valid UTF-8: percent-encode the UTF-8 bytes of the "
                           "text (curl --get --data-urlencode 'q=...')") from None  # fmt: skip


def refuse_blank(name: str, value: str, hint: str) -> None:
    """422 for a blank claim or topic in parameter ``name`` (a control character is refused
    before, by :data:`TEXT_PATTERN`)."""
    if not value.strip():
        raise ApiError(422, "invalid_parameter", f"parameter {name!r} is blank: {hint}")


StoreDep = Annotated[Store, Depends(get_store)]
EngineDep = Annotated[QueryEngine, Depends(get_engine)]
EmbedderDep = Annotated[Embedder, Depends(get_embedder)]
DatabaseDep = Annotated[str | None, Depends(get_database)]
ClaimParam = Annotated[
    str,
    Query(
        min_length=1,
        max_length=MAX_QUERY_CHARS,
        pattern=TEXT_PATTERN,
        description="The claim to answer, e.g. 'We should abandon fossil fuels'.",
    ),
]
"""``q`` of the query and pairs endpoints."""

# -- service: the page, liveness, what the graph holds -----------------------------------------

service_router = APIRouter(dependencies=[Depends(known_parameters)])


@service_router.get("/", include_in_schema=False)
async def explorer() -> FileResponse:
    """The explorer page: search, pro and con columns, graph neighbourhoods."""
    return FileResponse(STATIC / "index.html", media_type="text/html")


@service_router.get("/healthz", response_model=models.Health, responses=errors(), tags=["service"])
@functools.partial(blocking, limiter=health_threads)
def healthz(store: StoreDep) -> models.Health:
    """The service is up and Neo4j answers."""
    store.ping()
    return models.Health(status="ok")


@service_router.get(
    "/api/v1/status",
    response_model=models.ServiceStatus,
    responses=SERVICE_ERRORS,
    tags=["service"],
)
@blocking
def status(
    store: StoreDep, embedder: EmbedderDep, database: DatabaseDep, engine: EngineDep
) -> models.ServiceStatus:
    """What the graph holds, and whether it can answer queries."""
    graph = models.GraphStatus(**store.status())
    hint = None
    if graph.claims == 0:
        hint = "load a corpus: argkb load argsme <file>"
    elif graph.embedded_units == 0:
        hint = "embed the units: argkb embed (then argkb cluster)"
    return models.ServiceStatus(
        version=argkb_version(),
        default_ranker=engine.settings.ranker,
        model=_model_name(embedder),
        database=database,
        graph=graph,
        ready=hint is None,
        hint=hint,
    )


# -- query: the engine's answer ----------------------------------------------------------------

query_router = APIRouter(dependencies=[Depends(known_parameters)])


@query_router.get(
    "/api/v1/query", response_model=QueryResult, responses=QUERY_ERRORS, tags=["query"]
)
@blocking
def query(
    engine: EngineDep,
    q: ClaimParam,
    k: Annotated[int, Query(ge=1, le=MAX_K, description="Clusters per stance.")] = 10,
    ranker: Annotated[
        RankerName | None, Query(description="Default: argkb's default ranker.")
    ] = None,
    stance: Annotated[StanceChoice, Query(description="Which side(s) to answer.")] = "both",
    explain: Annotated[bool, Query(description="Attach the numbers behind each rank.")] = False,
    snippets: Annotated[
        bool,
        Query(
            description="Give each premise of more than two sentences its best two sentences "
            "for the query as 'snippet' (needs `argkb sentences`; the full text stays in 'text')."
        ),
    ] = False,
) -> Response:
    """Ranked pro and con premise clusters for a claim: the result of `argkb query --json`
    (with `snippets=true`, of `argkb query --snippets --json`)."""
    refuse_blank("q", q, ASK)
    # without the parameter, the engine's own setting decides (off unless the app was made so)
    result = engine.query(q, k=k, ranker=ranker, stance=stance, explain=explain,
                          snippets=True if snippets else None)  # fmt: skip
    return Response(to_json(result), media_type="application/json")


@query_router.get(
    "/api/v1/pairs", response_model=models.Pairs, responses=QUERY_ERRORS, tags=["query"]
)
@blocking
def pairs(
    store: StoreDep,
    embedder: EmbedderDep,
    q: ClaimParam,
    k: Annotated[int, Query(ge=1, le=MAX_K, description="Sentence pairs.")] = 10,
    explain: Annotated[bool, Query(description="Attach what scored each pair.")] = False,
) -> Response:
    """The best sentence pairs of premises for a claim (the sentence-pair pipeline: BM25 over
    sentences, re-ranked by their premise's topic and argumentativeness, one pair per premise,
    the top sentence with its next one; needs `argkb sentences`): the result of
    `argkb query --pairs --json`."""
    refuse_blank("q", q, ASK)
    result = answer_pairs(store.driver, q, k=k, embedder=embedder, explain=explain,
                          database=store.database)  # fmt: skip
    return Response(to_json(result), media_type="application/json")


KEYPOINTS_SLOW = (
    "computing the topic's key points took longer (the first request for a topic embeds all "
    "its premises, seconds per thousand of them; the server keeps what it embedded, so a "
    "retry goes on from there)"
)
"""What besides Neo4j may run past the deadline in ``/api/v1/keypoints``: a topic with
thousands of premises."""


@query_router.get(
    "/api/v1/keypoints",
    response_model=models.KeyPoints,
    responses=errors(403, 404, 409, 422),
    tags=["query"],
)
@functools.partial(blocking, slow=KEYPOINTS_SLOW)
def keypoints(
    store: StoreDep,
    embedder: EmbedderDep,
    topic: Annotated[
        str,
        Query(
            min_length=1,
            max_length=MAX_QUERY_CHARS,
            pattern=TEXT_PATTERN,
            description="The text of a conclusion in the graph (case ignored), e.g. "
            "'We should abandon fossil fuels'.",
        ),
    ],
    stance: Annotated[StanceChoice, Query(description="Which side(s) to summarise.")] = "both",
    k: Annotated[int, Query(ge=1, le=MAX_K, description="Key points per stance (at most).")] = 5,
) -> Response:
    """The key points of a topic's premises, per stance, with their prevalence, examples and
    sources: the result of `argkb keypoints TOPIC --json`."""
    from argkb.keypoints.topic import keypoints_report, why_missing

    refuse_blank("topic", topic, "name a conclusion")
    report = keypoints_report(store.driver, topic, stance, k, embedder, database=store.database)
    if report is None:
        raise ApiError(404, "not_found", why_missing(store.driver, topic, database=store.database))
    return Response(to_json(report), media_type="application/json")


# -- browse: the graph behind an answer --------------------------------------------------------

browse_router = APIRouter(dependencies=[Depends(known_parameters)])


@browse_router.get(
    "/api/v1/units/{key:path}", response_model=models.Unit, responses=BROWSE_ERRORS, tags=["browse"]
)
@blocking
def unit(
    store: StoreDep,
    key: Annotated[str, Path(min_length=1, max_length=MAX_KEY, description=UNIT_KEY)],
    limit: Annotated[
        int, Query(ge=1, le=MAX_LIST, description="At most this many premise uses.")
    ] = 100,
) -> models.Unit:
    """One argument unit: text, PageRank, clusters and the arguments it serves."""
    return models.Unit(**store.unit(key, limit))


@browse_router.get(
    "/api/v1/claims/{key:path}/arguments",
    response_model=models.ClaimArguments,
    responses=BROWSE_ERRORS,
    tags=["browse"],
)
@blocking
def claim_arguments(
    store: StoreDep,
    key: Annotated[str, Path(min_length=1, max_length=MAX_KEY, description="The claim's key.")],
    limit: Annotated[int, Query(ge=1, le=MAX_LIST, description="At most this many.")] = 100,
) -> models.ClaimArguments:
    """The arguments that conclude a claim, with their premises and stances."""
    return models.ClaimArguments(**store.claim_arguments(key, limit))


@browse_router.get(
    "/api/v1/clusters/{cid:path}",
    response_model=models.Cluster,
    responses=BROWSE_ERRORS,
    tags=["browse"],
)
@blocking
def cluster(
    store: StoreDep,
    cid: Annotated[str, Path(min_length=1, max_length=MAX_KEY, description=CLUSTER_ID)],
    limit: Annotated[int, Query(ge=1, le=MAX_LIST, description="At most this many.")] = 100,
) -> models.Cluster:
    """A claim or premise cluster (`argkb cluster`) and its members."""
    return models.Cluster(**store.cluster(cid, limit))


@browse_router.get(
    "/api/v1/graph", response_model=models.Graph, responses=BROWSE_ERRORS, tags=["browse"]
)
@blocking
def graph(
    store: StoreDep,
    key: Annotated[str, Query(min_length=1, max_length=MAX_KEY, description=START_UNIT)],
    depth: Annotated[int, Query(ge=1, le=MAX_DEPTH, description="Hops from the unit.")] = 1,
    limit: Annotated[int, Query(ge=1, le=MAX_LIST, description="At most this many nodes.")] = 200,
) -> models.Graph:
    """The neighbourhood of a unit as nodes and edges, for drawing."""
    return models.Graph(**store.graph(key, depth, limit))
