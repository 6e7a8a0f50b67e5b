"""argkb's Neo4j Browser guide (``docs/guide.md``) served over loopback HTTP for ``:play``.

Browser 5 plays a guide from a URL: it fetches the file from its own page, and a ``.md`` file is
split into slides on ``---`` lines, with its ```` ```cypher ```` blocks made runnable. Neo4j's own
HTTP server cannot serve it: its static content is one classpath folder, the Browser jar's. So
argkb serves the guide itself, with this tiny standard-library server on 127.0.0.1, which
:class:`argkb.db.server.LocalServer` starts beside a managed Neo4j that has HTTP on, and stops
with it (``python -m argkb.explore.guide``).

Browser's fetch sends ``pragma`` and ``cache-control`` headers, so it is a CORS request with a
preflight; both are answered with ``Access-Control-Allow-Origin`` for the Browser's own origins
(``http://127.0.0.1:HTTP_PORT``, and ``localhost`` on that port) and for no other.
"""

from __future__ import annotations

import argparse
import logging
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources

GUIDE_PATH = "/guide.md"
CONTENT_TYPE = "text/markdown; charset=utf-8"
MODULE = "argkb.explore.guide"  # what `python -m` runs; also how a guide process is recognised

log = logging.getLogger(__name__)


def guide_text() -> str:
    """The guide shipped in the package (``argkb/explore/guide.md``, i.e. ``docs/guide.md``)."""
    return resources.files("argkb.explore").joinpath("guide.md").read_text(encoding="utf-8")


def guide_url(port: int) -> str:
    """Where the guide server on ``port`` serves the guide (what ``:play`` is given)."""
    return f"http://127.0.0.1:{port}{GUIDE_PATH}"


def browser_origins(http_port: int) -> tuple[str, ...]:
    """The origins of Neo4j Browser served by a managed server on ``http_port``."""
    return (f"http://127.0.0.1:{http_port}", f"http://localhost:{http_port}")


class GuideServer(ThreadingHTTPServer):
    """Serves ``text`` at :data:`GUIDE_PATH` on 127.0.0.1:``port`` (0: any free port)."""

    daemon_threads = True

    def __init__(self, port: int, *, origins: tuple[str, ...], text: str) -> None:
        self.origins = origins
        self.body = text.encode("utf-8")
        super().__init__(("127.0.0.1", port), _Handler)

    @property
    def port(self) -> int:
        return int(self.server_address[1])


class _Handler(BaseHTTPRequestHandler):
    server: GuideServer
    server_version = "argkb-guide"

    def _cors(self) -> None:
        origin = self.headers.get("Origin")
        if origin in self.server.origins:
            self.send_header("Access-Control-Allow-Origin", origin)
        self.send_header("Vary", "Origin")

    def do_OPTIONS(self) -> None:  # the preflight of Browser's fetch
        self.send_response(204 if self.path == GUIDE_PATH else 404)
        self._cors()
        self.send_header("Access-Control-Allow-Methods", "GET, HEAD")
        self.send_header("Access-Control-Allow-Headers", "cache-control, pragma")
        self.send_header("Access-Control-Max-Age", "600")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_HEAD(self) -> None:
        self._answer(body=False)

    def do_GET(self) -> None:
        self._answer(body=True)

    def _answer(self, *, body: bool) -> None:
        if self.path.split("?", 1)[0] != GUIDE_PATH:
            self.send_error(404, f"only {GUIDE_PATH} is served here")
            return
        self.send_response(200)
        self._cors()
        self.send_header("Content-Type", CONTENT_TYPE)
        self.send_header("Content-Length", str(len(self.server.body)))
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if body:
            self.wfile.write(self.server.body)

    def log_message(self, format: str, *args: object) -> None:
        log.debug("%s " + format, self.address_string(), *args)


def main(argv: list[str] | None = None) -> None:
    """Serve the guide until killed (the managed server sends SIGTERM when it stops)."""
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}", description=main.__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--http-port", type=int, required=True, help="Neo4j Browser's port")
    parser.add_argument("--instance", help="the managed instance it belongs to (for ps)")
    args = parser.parse_args(argv)
    server = GuideServer(args.port, origins=browser_origins(args.http_port), text=guide_text())
    server.serve_forever()


if __name__ == "__main__":
    main()
