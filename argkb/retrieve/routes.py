"""Search routes that survive a missing index: answer from what exists, and say so.

A killed bulk load (the full-text indexes are rebuilt after it), a graph loaded before ``argkb
init`` or an index still populating leaves an index procedure failing. A query then answers
from its other routes and carries a note, instead of failing (issue 13).

Whether a failure is "the index is unavailable" is decided from the error when its text says
so, else from the indexes' state: a full-text query running while a bulk load drops its index
can fail with Neo4j's "general processing exception - unexpected error", which names nothing.

An index that is still *populating* does not fail: ``db.index.fulltext.queryNodes`` waits
until it is online (5.4 s for 400,000 short texts on this machine; minutes for a large bulk
load, and the driver gives up on a connection that is silent for 120 s). So a route asks first
(:func:`indexes_ready`); a check that found its indexes online is trusted for
:data:`TRUST_ONLINE_SECONDS`, and forgotten when a route fails for an index.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from argkb.db import cypher

if TYPE_CHECKING:
    import neo4j

T = TypeVar("T")
_UNAVAILABLE = ("no such", "populating", "not online", "failed state")
TRUST_ONLINE_SECONDS = 5.0
# (driver, database, index names) -> when they were last seen online (time.monotonic)
_seen_online: dict[tuple[int, str | None, tuple[str, ...]], float] = {}


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


def indexes_ready(driver: neo4j.Driver, names: Sequence[str], database: str | None) -> bool:
    """Whether the indexes ``names`` can be read now without waiting for a population: they
    were seen online in the last :data:`TRUST_ONLINE_SECONDS`, or are online now. A user who
    may not list indexes (``SHOW INDEXES`` refused) is not kept from reading them."""
    from neo4j.exceptions import ClientError

    key = (id(driver), database, tuple(sorted(set(names))))
    seen = _seen_online.get(key)
    if seen is not None and time.monotonic() - seen < TRUST_ONLINE_SECONDS:
        return True
    try:
        online = indexes_online(driver, names, database)
    except ClientError:  # cannot tell: the read itself decides, as before the check
        return True
    if not online:
        return False
    _seen_online[key] = time.monotonic()
    return True


def route_failed_for_index(
    err: BaseException, driver: neo4j.Driver, names: Sequence[str], database: str | None
) -> bool:
    """Whether a route reading the indexes ``names`` failed with ``err`` because one of them is
    unavailable: the error says so, or it came from the server while one of them is not online
    (checked after the failure). Any other error is the caller's to raise."""
    if index_unavailable(err):
        _seen_online.clear()
        return True
    if not _server_errors(err):
        return False
    try:
        unavailable = not indexes_online(driver, names, database)
    except Exception:  # the server is gone too: the original error says more
        return False
    if unavailable:
        _seen_online.clear()
    return unavailable


def read_if_available(
    read: Callable[[], T], driver: neo4j.Driver, names: Sequence[str], database: str | None
) -> T | None:
    """``read()``, or None when one of the indexes ``names`` it reads is still populating
    (:func:`indexes_ready`) or unavailable (:func:`route_failed_for_index`); any other error
    raises. Every route that reads an index goes through here."""
    if not indexes_ready(driver, names, database):
        return None
    try:
        return read()
    except Exception as err:
        if not route_failed_for_index(err, driver, names, database):
            raise
        return None


def unless_index_missing(
    read: Callable[[], dict[int, float]],
    index: str,
    notes: list[str],
    driver: neo4j.Driver,
    database: str | None,
) -> dict[int, float]:
    """A route's scores ``read()``; none, with a note in ``notes``, when the index ``index`` it
    reads is still populating or unavailable (:func:`read_if_available`)."""
    found = read_if_available(read, driver, [index], database)
    if found is not None:
        return found
    note = (
        f"the index {index} is missing or still being built, so this answer does without "
        "it; 'argkb status' shows the indexes and 'argkb init' recreates missing ones"
    )
    if note not in notes:
        notes.append(note)
    return {}
