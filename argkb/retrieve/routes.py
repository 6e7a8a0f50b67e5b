"""Search routes that survive a missing index: answer from what exists, and say so.

A killed bulk load (the full-text indexes are rebuilt after it), a graph loaded before ``argkb
init`` or an index still populating leaves an index procedure failing. A query then answers
from its other routes and carries a note, instead of failing (issue 13).
"""

from __future__ import annotations

from collections.abc import Callable


def index_unavailable(err: Exception) -> bool:
    """Whether ``err`` is Neo4j saying that an index a procedure reads is missing or not online."""
    from neo4j.exceptions import ClientError, DatabaseError, TransientError

    if not isinstance(err, ClientError | DatabaseError | TransientError):
        return False
    text = (err.message or "").lower()
    return "index" in text and any(
        phrase in text for phrase in ("no such", "populating", "not online", "failed state")
    )


def unless_index_missing(
    read: Callable[[], dict[int, float]], index: str, notes: list[str]
) -> dict[int, float]:
    """A route's scores ``read()``; none, with a note in ``notes``, when the index ``index`` it
    reads is unavailable."""
    try:
        return read()
    except Exception as err:
        if not index_unavailable(err):
            raise
        note = (
            f"the index {index} is missing or still being built, so this answer does without "
            "it; 'argkb status' shows the indexes and 'argkb init' recreates missing ones"
        )
        if note not in notes:
            notes.append(note)
        return {}
