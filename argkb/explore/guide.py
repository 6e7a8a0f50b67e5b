"""argkb's Neo4j Browser guide (``docs/guide.md``) and style (``argkb.grass``) served over
loopback HTTP for ``:play`` and ``:style``.

Browser 5 plays a guide from a URL: it fetches the file from its own page, and a ``.md`` file is
split into slides on ``---`` lines, with its ```` ```cypher ```` blocks made runnable.
``:style URL`` fetches a GraSS file the same way and makes it Browser's style (kept in the web
browser's storage).
Neo4j's own HTTP server cannot serve either: its static content is one classpath folder, the
Browser jar's. So argkb serves them itself, with this tiny standard-library server on 127.0.0.1,
which :class:`argkb.db.server.LocalServer` starts beside a managed Neo4j that has HTTP on, and
stops with it (``python -m argkb.explore.guide``). Neo4j's ``browser.post_connect_cmd`` runs
both commands when Browser connects (:func:`post_connect_cmd`), so a new user gets argkb's style
and guide with no step of their own. Given ``--server-pid``, the process also ends by itself
within a second of that Neo4j ending, however it ended, so it never outlives its server.

Browser's fetch sends ``pragma`` and ``cache-control`` headers, so it is a CORS request with a
preflight; both are answered with ``Access-Control-Allow-Origin`` for the Browser's own origins
(``http://127.0.0.1:HTTP_PORT``, and ``localhost`` on that port) and for no other.
"""

from __future__ import annotations

import argparse
import html
import logging
import os
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

# the addresses live in the database layer, which writes them into neo4j.conf
from argkb.db.guide_urls import (  # noqa: F401
    GRASS_PATH,
    GUIDE_HTML_PATH,
    GUIDE_PATH,
    browser_origins,
    grass_url,
    guide_url,
    post_connect_cmd,
)

CONTENT_TYPE = "text/markdown; charset=utf-8"
HTML_CONTENT_TYPE = "text/html; charset=utf-8"
GRASS_CONTENT_TYPE = "text/plain; charset=utf-8"
SLIDE_BREAK = re.compile(r"\r?\n---\r?\n")  # where Browser splits a Markdown guide
MODULE = "argkb.explore.guide"  # what `python -m` runs; also how a guide process is recognised

log = logging.getLogger(__name__)


def guide_text() -> str:
    """The guide shipped in the package (``argkb/explore/guide.md``, i.e. ``docs/guide.md``)."""
    return resources.files("argkb.explore").joinpath("guide.md").read_text(encoding="utf-8")


def guide_html(markdown: str) -> str:
    """The Markdown guide as a Browser HTML guide: one ``<slide>`` per ``---``-separated slide,
    each ```` ```cypher ```` block a runnable ``pre`` (click: into the editor), as in Neo4j's
    own HTML guides.

    Why not the Markdown itself: Browser 5.24 draws a Markdown guide played in a frame with the
    colours of its dark sidebar, pale grey (#f4f4f4) on the frame's near-white background, and
    it escapes any HTML in the Markdown, so the guide's own markup cannot correct it. HTML
    slides take the frame's theme: dark text on light.
    """
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def fence(_self: Any, tokens: Any, idx: int, _options: Any, _env: Any) -> str:
        token = tokens[idx]
        code = html.escape(token.content.rstrip("\n"), quote=False)
        if token.info.strip().split(" ")[0] == "cypher":
            return f'<pre class="code runnable">{code}</pre>\n'
        return f"<pre><code>{code}</code></pre>\n"

    md.add_render_rule("fence", fence)
    slides = "".join(
        f'<slide class="row-fluid"><div class="col-sm-12">\n{md.render(text)}</div></slide>\n'
        for text in SLIDE_BREAK.split(markdown)
    )
    title = next((line[2:].strip() for line in markdown.splitlines() if line.startswith("# ")),
                 "argkb")  # fmt: skip
    return (
        f"<title>{html.escape(title)}</title>\n"
        f'<article class="guide"><carousel class="deck container-fluid">\n{slides}'
        "</carousel></article>\n"
    )


class GuideServer(ThreadingHTTPServer):
    """Serves the Markdown guide ``text`` at :data:`GUIDE_PATH`, as HTML at
    :data:`GUIDE_HTML_PATH`, and ``grass``, if given, at :data:`GRASS_PATH`, on
    127.0.0.1:``port`` (0: any free port)."""

    daemon_threads = True

    def __init__(
        self, port: int, *, origins: tuple[str, ...], text: str, grass: str | None = None
    ) -> None:
        self.origins = origins
        self.body = text.encode("utf-8")
        self.files = {
            GUIDE_PATH: (CONTENT_TYPE, self.body),
            GUIDE_HTML_PATH: (HTML_CONTENT_TYPE, guide_html(text).encode("utf-8")),
        }
        if grass is not None:
            self.files[GRASS_PATH] = (GRASS_CONTENT_TYPE, grass.encode("utf-8"))
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
        self.send_response(204 if self.path.split("?", 1)[0] in self.server.files else 404)
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
        found = self.server.files.get(self.path.split("?", 1)[0])
        if found is None:
            self.send_error(404, f"only {', '.join(self.server.files)} served here")
            return
        content_type, data = found
        self.send_response(200)
        self._cors()
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if body:
            self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        log.debug("%s " + format, self.address_string(), *args)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def watch(server: GuideServer, pid: int, interval: float = 0.5) -> threading.Thread:
    """Shut ``server`` down once the process ``pid`` (its Neo4j) has ended."""

    def run() -> None:
        while _alive(pid):
            time.sleep(interval)
        log.info("Neo4j (pid %d) has ended: the guide server stops", pid)
        server.shutdown()

    thread = threading.Thread(target=run, name="watch-neo4j", daemon=True)
    thread.start()
    return thread


def main(argv: list[str] | None = None) -> None:
    """Serve the guide and the style until killed (the managed server sends SIGTERM when it
    stops) or, with ``--server-pid``, until that process ends."""
    from argkb.explore.style import grass_text

    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}", description=main.__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--http-port", type=int, required=True, help="Neo4j Browser's port")
    parser.add_argument("--instance", help="the managed instance it belongs to (for ps)")
    parser.add_argument("--server-pid", type=int, help="end when this process (Neo4j) ends")
    args = parser.parse_args(argv)
    server = GuideServer(
        args.port, origins=browser_origins(args.http_port), text=guide_text(), grass=grass_text()
    )
    if args.server_pid:
        watch(server, args.server_pid)
    try:
        server.serve_forever()
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
