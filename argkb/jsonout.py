"""JSON text of argkb's results, for the CLI's ``--json`` and the HTTP API alike.

It sits at the bottom of the package (it imports nothing of argkb) so that ``argkb serve`` and the
CLI both use it without the HTTP layer importing the CLI: the layers go db <- embed, cluster, rank,
stance <- query <- serve, eval <- cli, and only upward.
"""

from __future__ import annotations

import dataclasses
import json
import math
from typing import Any


def _default(obj: Any) -> Any:
    """What :func:`json.dumps` cannot write itself: a dataclass instance as its fields
    (recursively, through :func:`dataclasses.asdict`), anything else (a path, a date, a numpy
    scalar) as ``str``."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return dataclasses.asdict(obj)
    return str(obj)


def finite(value: Any) -> Any:
    """``value`` with every NaN and infinity as None, through dicts, lists, tuples and
    dataclasses: JSON has no such numbers, and ``json.dumps`` would write ``NaN``, which jq and
    other strict parsers refuse. None (``null``) is what JavaScript's JSON.stringify writes; an
    undefined measure (no pair to rank) reads as "no value", and a long run's output is kept."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [finite(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return finite(dataclasses.asdict(value))
    return value


def to_json(value: Any, *, indent: int = 2) -> str:
    """``value`` as indented JSON text (two spaces), dataclasses included; NaN and infinity are
    ``null`` (:func:`finite`)."""
    return json.dumps(finite(value), indent=indent, default=_default, allow_nan=False)
