"""The Neo4j Browser style (GraSS) shipped with argkb: ``argkb/explore/argkb.grass``.

``argkb browse`` gives it to Browser with no step of the user's: the managed server's
``browser.post_connect_cmd`` runs ``:style`` with its URL on the guide server
(:mod:`argkb.explore.guide`) whenever Browser connects.

Browser styles by label and relationship type only (its selectors are ``node.Label`` and
``relationship.TYPE``, no property conditions; of several matching rules the later one in the
file wins), so the style sets colours and captions per label: units by their text, arguments
by stance and relevance (``relevance_avg``), sources by title, and each premise edge by its
stance. Clusters are drawn by their number of members through the size label that the cluster
writers give each one (``ClusterOf1`` .. ``ClusterOf100plus``,
``cypher/cluster/write_clusters.cypher``).
Sizing units by PageRank and colouring by stance are Bloom's (see :mod:`argkb.explore.bloom`).
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from argkb.errors import ExploreError

# a rule's body may hold caption templates such as "{text}"
_RULE = re.compile(r"(?P<selector>[\w.]+)\s*\{(?P<body>(?:[^{}]|\{[^{}]*\})*)\}", re.S)


def grass_text() -> str:
    """The text of the shipped ``.grass`` style."""
    return resources.files("argkb.explore").joinpath("argkb.grass").read_text(encoding="utf-8")


def grass_rules(text: str) -> dict[str, dict[str, str]]:
    """``selector -> {property: value}`` of a GraSS text (``node.Claim``, ``relationship``...)."""
    rules: dict[str, dict[str, str]] = {}
    for match in _RULE.finditer(text):
        props = {}
        for line in match["body"].split(";"):
            if ":" in line:
                key, value = line.split(":", 1)
                props[key.strip()] = value.strip().strip('"')
        rules[match["selector"]] = props
    return rules


def write_grass(path: Path) -> None:
    try:
        path.write_text(grass_text(), encoding="utf-8")
    except OSError as err:
        raise ExploreError(f"cannot write {path}: {err.strerror or err}") from err
