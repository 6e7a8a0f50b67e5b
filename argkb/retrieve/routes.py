"""Search routes that survive a missing index: answer from what exists, and say so.

A killed bulk load (the full-text indexes are rebuilt after it), a graph loaded before ``argkb
init`` or an index still populating leaves an index procedure failing. A query then answers
from its other routes and carries a note, instead of failing (issue 13).

Whether a failure is "the index is unavailable" is decided from the error when its text says
so, else from the indexes' state: a full-text query running while a bulk load drops its index
can fail with Neo4j's "general processing exception - unexpected error", which names nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from argkb.db import cypher

if TYPE_CHECKING:
    import neo4j

_UNAVAILABLE = ("no such", "populating", "not online", "failed state")


def _server_errors(err: BaseException) -> list[BaseException]:
    """The errors from the server in ``err``'s chain of causes: the driver raises
    ``ResultFailedError`` *from* the server's error when a failed result is read again."""
    from neo4j.exceptions import Neo4jError

    found: list[BaseException] = []
    cause: BaseException | None = err
    seen: set[int] = set()
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, Neo4jError):
            found.append(cause)
        cause = cause.__cause__
    return found


def index_unavailable(err: BaseException) -> bool:
    """Whether ``err``, or an error it was raised from, is Neo4j saying that an index a
    procedure reads is missing or not online."""
    from neo4j.exceptions import ClientError, DatabaseError, TransientError

    for cause in _server_errors(err):
        if isinstance(cause, ClientError | DatabaseError | TransientError):
            text = (cause.message or "").lower()
            if "index" in text and any(phrase in text for phrase in _UNAVAILABLE):
                return True
    return False


def indexes_online(driver: neo4j.Driver, names: Sequence[str], database: str | None) -> bool:
    """Whether every index in ``names`` exists and is ONLINE now."""
    rows = cypher.read(driver, "query/indexes_online", database=database, names=list(names))
    return int(rows[0]["online"]) == len(set(names))


def route_failed_for_index(
    err: BaseException, driver: neo4j.Driver, names: Sequence[str], database: str | None
) -> bool:
    """Whether a route reading the indexes ``names`` failed with ``err`` because one of them is
    unavailable: the error says so, or it came from the server while one of them is not online
    (checked after the failure). Any other error is the caller's to raise."""
    if index_unavailable(err):
        return True
    if not _server_errors(err):
        return False
    try:
        return not indexes_online(driver, names, database)
    except Exception:  # the server is gone too: the original error says more
        return False


def unless_index_missing(
    read: Callable[[], dict[int, float]],
    index: str,
    notes: list[str],
    driver: neo4j.Driver,
    database: str | None,
) -> dict[int, float]:
    """A route's scores ``read()``; none, with a note in ``notes``, when the index ``index`` it
    reads is unavailable (:func:`route_failed_for_index`)."""
    try:
        return read()
    except Exception as err:
        if not route_failed_for_index(err, driver, [index], database):
            raise
        note = (
            f"the index {index} is missing or still being built, so this answer does without "
            "it; 'argkb status' shows the indexes and 'argkb init' recreates missing ones"
        )
        if note not in notes:
            notes.append(note)
        return {}
