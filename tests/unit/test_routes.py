"""Which driver errors mean "an index a route reads is unavailable" (argkb.retrieve.routes)."""

from __future__ import annotations

from neo4j.exceptions import Neo4jError, ResultFailedError

from argkb.retrieve.routes import index_unavailable

MISSING = (
    "Failed to invoke procedure `db.index.fulltext.queryNodes`: Caused by: "
    "java.lang.IllegalArgumentException: There is no such fulltext schema index: premise_text"
)


def _server_error(code: str, message: str) -> Neo4jError:
    return Neo4jError._hydrate_neo4j(code=code, message=message)


def _failed_result(cause: BaseException) -> ResultFailedError:
    """What the driver raises when a failed result is read again: ResultFailedError from the
    server's error."""
    try:
        raise ResultFailedError(None, "The result has failed.") from cause
    except ResultFailedError as err:
        return err


def test_a_missing_index_is_recognised_directly_and_behind_a_failed_result() -> None:
    missing = _server_error("Neo.ClientError.Procedure.ProcedureCallFailed", MISSING)
    assert index_unavailable(missing)
    assert index_unavailable(_failed_result(missing))


def test_other_errors_are_not_an_unavailable_index() -> None:
    syntax = _server_error("Neo.ClientError.Statement.SyntaxError", "Invalid input 'MATCH'")
    assert not index_unavailable(syntax)
    assert not index_unavailable(_failed_result(syntax))
    assert not index_unavailable(ValueError("no such index"))  # not from the server
