"""The Neo4j Browser style (GraSS) shipped with argkb: ``argkb/explore/argkb.grass``.

Browser styles by label and relationship type only (its selectors are ``node.Label`` and
``relationship.TYPE``, no property conditions), so the style sets colours and captions per
label, a larger diameter for claims than for premises, and shows each premise edge's stance
as its caption; sizing by PageRank and colouring by stance are Bloom's (see
:mod:`argkb.explore.bloom`).
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
