"""Where argkb keeps its per-user files (Neo4j distribution, server instances, embedding cache)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """The per-user cache folder: ``$ARGKB_HOME``, else ``$XDG_CACHE_HOME/argkb``, else
    ``~/.cache/argkb``. Read at call time, never at import time."""
    explicit = os.environ.get("ARGKB_HOME")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "argkb"
