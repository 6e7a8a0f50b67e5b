"""Where argkb's Neo4j Browser guide server answers, and the Browser setting that plays it.

The guide server itself (:mod:`argkb.explore.guide`) belongs to the exploring layer; these
addresses are what the managed server (:mod:`argkb.db.server`, :mod:`argkb.db.browser`) writes
into ``neo4j.conf`` and prints, so they sit here, where the database layer may import them.
"""

from __future__ import annotations

GUIDE_PATH = "/guide.md"  # the guide as written (docs/guide.md)
GUIDE_HTML_PATH = "/guide.html"  # the same, as the HTML guide ``:play`` is given
GRASS_PATH = "/argkb.grass"


def guide_url(port: int) -> str:
    """Where the guide server on ``port`` serves the guide (what ``:play`` is given): the HTML
    guide (:func:`argkb.explore.guide.guide_html`)."""
    return f"http://127.0.0.1:{port}{GUIDE_HTML_PATH}"


def grass_url(port: int) -> str:
    """Where the guide server on ``port`` serves argkb's style (what ``:style`` is given)."""
    return f"http://127.0.0.1:{port}{GRASS_PATH}"


def post_connect_cmd(port: int) -> str:
    """Neo4j's ``browser.post_connect_cmd`` for a guide server on ``port``: Browser runs each
    ``;``-separated command, with a ``:`` added, every time it connects. The style comes first,
    so the guide's frame lands on top of the stream."""
    return f"style {grass_url(port)}; play {guide_url(port)}"


def browser_origins(http_port: int) -> tuple[str, ...]:
    """The origins of Neo4j Browser served by a managed server on ``http_port``."""
    return (f"http://127.0.0.1:{http_port}", f"http://localhost:{http_port}")
