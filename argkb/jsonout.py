"""JSON text of argkb's results, for the CLI's ``--json`` and the HTTP API alike.

It sits at the bottom of the package (it imports nothing of argkb) so that ``argkb serve`` and the
CLI both use it without the HTTP layer importing the CLI: the layers go db <- embed, cluster, rank,
stance <- query <- serve, eval <- cli, and only upward.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any


def _default(obj: Any) -> Any:
    """What :func:`json.dumps` cannot write itself: a dataclass instance as its fields
    (recursively, through :func:`dataclasses.asdict`), anything else (a path, a date, a numpy
    scalar) as ``str``."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return dataclasses.asdict(obj)
    return str(obj)


def to_json(value: Any) -> str:
    """``value`` as indented JSON text (two spaces), dataclasses included."""
    return json.dumps(value, indent=2, default=_default)
