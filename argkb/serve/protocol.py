"""The HTTP layer under ``argkb serve``: security headers, and JSON for the errors that the HTTP
server answers before the application sees a request (docs/serve.md, "Limits and headers").

uvicorn's h11 protocol answers a request it cannot parse (a request line and headers longer than
h11 buffers, or no HTTP at all) itself, with a plain-text ``400 Invalid HTTP request received.``,
and closes the socket while the client may still be sending, so the client often sees a reset
instead. :class:`JsonErrorProtocol` answers the same cases with the API's JSON error body
(``{"status", "error", "message"}``, 414 or 431 when the request head is too long, 400
otherwise) and the security headers, then stops writing but reads on and discards what the
client still sends (a lingering close, as web servers do), so the client reads the answer.
:func:`server_config` is the uvicorn configuration ``argkb serve`` runs (and the browser test);
:func:`listening_socket` binds its address first, so that a port in use is one error line before
anything else is said.
"""

from __future__ import annotations

import asyncio
import json
import socket
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from uvicorn.protocols.http.h11_impl import H11Protocol

if TYPE_CHECKING:
    import uvicorn
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_REQUEST_HEAD = 64 * 1024
"""Bytes of request line and headers the server buffers (h11's default is 16 KiB): room for the
longest valid query, 2,000 characters of 4-byte UTF-8 percent-encoded (24,000 bytes), a token and
a browser's headers. A longer head is answered 414 or 431 in JSON."""
LINGER_SECONDS = 5.0
"""How long a connection answered with such an error may go on sending before it is closed."""
HEAD_SECONDS = 10.0
"""How long a new connection may take to send its first request head. uvicorn times out only the
wait between requests, so a client that sent nothing, or half a head, held its connection (and a
file descriptor) for ever; 3,000 such connections were all still open after a minute."""

# self only; the one inline style allowed is the rule Cytoscape.js inserts into the page
# (".__________cytoscape_container { position: relative; }"), by its SHA-256
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; "
    "style-src 'self' 'sha256-pgvDUBa4IjFA2yuSJ2cqcyxmNYJMborsd0ORcRv9vw8='; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Sent with every answer: the explorer page, its assets, the API's JSON, its errors."""


class SecurityHeaders:
    """ASGI middleware that adds :data:`SECURITY_HEADERS` to every HTTP response (a header the
    application set itself is kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        api = scope["path"].startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                from starlette.datastructures import MutableHeaders

                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
                if api:  # answers of the moment (and token-protected ones): kept by no cache
                    headers.setdefault("Cache-Control", "no-store")
            await send(message)

        await self.app(scope, receive, send_with_headers)


class IgnoreRanges:
    """ASGI middleware that drops a request's ``Range`` header, and the ``Accept-Ranges`` that
    file responses advertise. The page and its files are small and the API answers JSON, so no
    client needs part of an answer, and Starlette's file responses answered a bad range with a
    plain-text 400 or an empty 416 instead of the API's JSON error: every request is now
    answered whole, and no answer invites a client to ask for part of one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = [(name, value) for name, value in scope["headers"] if name != b"range"]
        if len(headers) != len(scope["headers"]):
            scope = {**scope, "headers": headers}

        async def without_ranges(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(n, v) for n, v in message.get("headers", []) if n != b"accept-ranges"]
                message = {**message, "headers": kept}
            await send(message)

        await self.app(scope, receive, without_ranges)


class HeadAsGet:
    """ASGI middleware that answers HEAD as GET without the body (RFC 9110, 9.3.2): the same
    status and headers, ``Content-Length`` included. The API's routes are declared for GET, and
    FastAPI answers HEAD on them with 405; link checkers and monitors ask with HEAD."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)


class JsonErrorProtocol(H11Protocol):
    """uvicorn's h11 protocol with the API's JSON errors for requests it cannot parse."""

    _lingering = False
    _head_timer: asyncio.TimerHandle | None = None
    _head_cycle: Any = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._await_head()

    def _await_head(self) -> None:
        """Give the next request head :data:`HEAD_SECONDS` to arrive whole (uvicorn's own
        keep-alive timer stops at the first byte, so half a head held the connection)."""
        self._stop_head_timer()
        self._head_cycle = self.cycle
        self._head_timer = self.loop.call_later(HEAD_SECONDS, self._head_late)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        waiting = self.cycle is self._head_cycle and (
            self.cycle is None or self.cycle.response_complete
        )  # no request began since the timer was armed, and none is being answered
        if waiting and not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._lingering:  # answered and half-closed: what the client still sends is dropped
            return
        super().data_received(data)
        if self.cycle is not self._head_cycle:  # a request began
            self._stop_head_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        import h11

        buffered, _ = self.conn.trailing_data
        status, error, message = _unreadable(bytes(buffered))
        body = json.dumps({"status": status, "error": error, "message": message}).encode()
        headers: list[tuple[Any, Any]] = [
            ("content-type", "application/json"),
            ("content-length", str(len(body))),
            ("connection", "close"),
            *SECURITY_HEADERS.items(),
        ]
        for event in (
            h11.Response(status_code=status, headers=headers, reason=HTTPStatus(status).phrase),
            h11.Data(data=body),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event))
        self._lingering = True
        if self.transport.can_write_eof():
            self.transport.write_eof()  # the answer, then FIN; closed when the client is done
            self.loop.call_later(LINGER_SECONDS, self.transport.close)
        else:
            self.transport.close()


def _unreadable(buffered: bytes) -> tuple[int, str, str]:
    """Status, kind and message for a request head h11 cannot read (``buffered``: what came)."""
    if len(buffered) > MAX_REQUEST_HEAD:
        if b"\n" in buffered:
            return 431, "headers_too_large", (
                f"the request headers are longer than {MAX_REQUEST_HEAD:,} bytes: send fewer or "
                "shorter headers (cookies?)"
            )  # fmt: skip
        return 414, "uri_too_long", (
            f"the address is longer than {MAX_REQUEST_HEAD:,} bytes: shorten the claim "
            "(parameter 'q' takes at most 2000 characters) or the key"
        )  # fmt: skip
    line = buffered.partition(b"\r\n")[0].partition(b"\n")[0]
    if any(byte >= 0x80 for byte in line) or line.count(b" ") > 2:
        return 400, "bad_request", (
            "the address holds a space or a non-ASCII character: percent-encode them "
            "(curl --get --data-urlencode 'q=...')"
        )  # fmt: skip
    return 400, "bad_request", "not an HTTP/1.1 request this server can read"


def server_config(app: ASGIApp, *, host: str, port: int) -> uvicorn.Config:
    """The uvicorn configuration of ``argkb serve``: h11 with :class:`JsonErrorProtocol` and
    :data:`MAX_REQUEST_HEAD`, warnings only."""
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=JsonErrorProtocol,
        h11_max_incomplete_event_size=MAX_REQUEST_HEAD,
        server_header=False,  # no "server: uvicorn" on every answer
    )


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (0: a free port the system picks) for uvicorn to
    listen on; ``OSError`` (the port in use, an address this machine does not have) as uvicorn
    would raise it, but before the server starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock
