"""One translation of the Neo4j driver's errors into argkb's, for every command that talks to
Neo4j: a server that stops answering mid-job (killed, crashed, restarted) is one line that says
what happened and what to do, not the driver's traceback."""

from __future__ import annotations

from argkb.errors import ArgKBError, DatabaseError, DatabaseUnavailable

RERUN = (
    "start it (argkb server start, or your own server) and run the same command again: an "
    "interrupted load, embed, cluster or pagerank run resumes from what was written"
)


def _first_line(err: object) -> str:
    text = " ".join(str(err).split())
    return text[:300] or type(err).__name__


def translate(err: BaseException, command: str = "the command") -> ArgKBError | None:
    """``err`` as an :class:`ArgKBError` with a one-line message, or None when it is not an error
    of the Neo4j driver (or of the connection to it)."""
    from neo4j.exceptions import DriverError, Neo4jError, ServiceUnavailable, SessionExpired

    if isinstance(err, BrokenPipeError):
        return None  # standard output's reader went away (argkb status | head -1), not Neo4j
    if isinstance(err, ServiceUnavailable | SessionExpired | ConnectionError):
        return DatabaseUnavailable(
            f"Neo4j stopped answering during {command} ({type(err).__name__}: "
            f"{_first_line(err)}); {RERUN}"
        )
    if isinstance(err, Neo4jError):
        code = err.code or type(err).__name__
        return DatabaseError(f"Neo4j refused {command}: {code}: {_first_line(err.message or err)}")
    if isinstance(err, DriverError):
        return DatabaseError(f"Neo4j driver error in {command}: {_first_line(err)}")
    return None
