"""One exception family for argkb: every error a user can act on is an :class:`ArgKBError`."""

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from argkb.loaders.records import Rejected


def located(where: str, field: str, reason: str) -> str:
    """``where: field 'f': reason``, the form of every load error; a ``field`` in angle brackets
    (``<file>``, ``<json>``, ``<zip>``: the whole file or record, not one of its fields) is left
    out, as the reason says what is wrong with it."""
    if field.startswith("<") and field.endswith(">"):
        return f"{where}: {reason}"
    return f"{where}: field {field!r}: {reason}"


class ArgKBError(Exception):
    """Base class of all argkb errors; the CLI turns these into a clean message."""


class ConfigError(ArgKBError):
    """A setting is missing or invalid."""


class ServerError(ArgKBError):
    """The managed local Neo4j could not be installed, started, stopped or reached."""


class ConnectionFailed(ArgKBError):
    """No Neo4j server answered at the resolved address."""


class DatabaseUnavailable(ArgKBError):
    """Neo4j stopped answering in the middle of a job (killed, crashed, network gone)."""


class DatabaseError(ArgKBError):
    """Neo4j refused a statement, or its driver failed, in a way argkb does not handle itself."""


class ServerVersionError(ArgKBError):
    """The Neo4j server is too old or lacks a capability argkb needs."""


class QueryFileError(ArgKBError):
    """A Cypher file under cypher/ is missing or cannot be parsed into statements."""


class LoadError(ArgKBError):
    """A corpus cannot be read, or (with ``--on-error fail``) a record is malformed.

    The message names the file, the record (line, index or id) and the field.
    """

    def __init__(self, where: str, field: str, reason: str) -> None:
        super().__init__(located(where, field, reason))
        self.where = where
        self.field = field
        self.reason = reason

    @classmethod
    def at_first(cls, rejected: Sequence["Rejected"]) -> "LoadError":
        """The error of the first of a loader's ``rejected`` rows (not empty), saying how many
        more there were: ``file:line N: field 'f': reason (and 3 more)``."""
        first, more = rejected[0], len(rejected) - 1
        return cls(first.where, first.field, first.reason + (f" (and {more} more)" if more else ""))


class LoadInterrupted(KeyboardInterrupt):
    """Ctrl-C after a load marked its corpus ``loading`` (what it wrote stays; running it again
    completes it). An interrupt before that is a plain :class:`KeyboardInterrupt`: nothing was
    written."""

    def __init__(self, cid: str) -> None:
        super().__init__(cid)
        self.cid = cid


class QueryError(ArgKBError):
    """The query cannot be answered (empty graph, missing embeddings, an unknown ranker ...)."""


class EvaluationError(ArgKBError):
    """An evaluation cannot run as asked (unknown ranker, inconsistent inputs, bad benchmark)."""


class ExploreError(ArgKBError):
    """A browsing query, style, perspective or analytics run cannot be done as asked."""


# -- raised by the algorithms, the evaluation files and the sentence index (moved here from
# rank/pagerank.py, rank/spark.py, eval/trec.py, eval/metrics/ranking.py, sentences/retrieve.py;
# still importable from there)


class GraphInputError(ArgKBError, ValueError):
    """The arrays describing a graph, or a parameter of the algorithm, are malformed."""


class ConvergenceError(ArgKBError):
    """Power iteration did not reach the tolerance within ``max_iter`` iterations.

    Attributes
    ----------
    iterations : int
        Number of iterations performed.
    residual : float
        L1 norm of the last change between iterates.
    tol : float or None
        The tolerance that was not reached.
    """

    def __init__(self, iterations: int, residual: float, tol: float | None = None) -> None:
        self.iterations = iterations
        self.residual = residual
        self.tol = tol
        target = "" if tol is None else f" >= tol {tol:.3g}"
        super().__init__(
            f"PageRank did not converge in {iterations} iterations "
            f"(L1 residual {residual:.3g}{target}); raise max_iter, loosen tol, "
            "or warm-start from an earlier result"
        )

    def __reduce__(self) -> tuple[type["ConvergenceError"], tuple[int, float, float | None]]:
        return (type(self), (self.iterations, self.residual, self.tol))


class SparkUnavailableError(ArgKBError):
    """pyspark is not installed, or Spark's JVM did not start."""


class EvalFileError(ArgKBError, ValueError):
    """An evaluation file (topics, qrels, clusters, run) is malformed; says file, line, problem."""

    def __init__(self, path: str | os.PathLike[str], line: int | str | None, reason: str) -> None:
        where = str(path) if line is None else f"{path}:line {line}"
        if isinstance(line, str):
            where = f"{path}: {line}"
        super().__init__(f"{where}: {reason}")
        self.path = str(path)
        self.line = line
        self.reason = reason


class MetricInputError(ArgKBError, ValueError):
    """A metric was called with inputs it cannot score (bad cutoff, unknown cluster, ...)."""


class SentencesMissing(ArgKBError):
    """The graph has no sentence index to search: ``argkb sentences`` has not run."""


class ApiError(ArgKBError):
    """A request ``argkb serve`` answers with HTTP ``status`` and a JSON error body.

    ``error`` is the body's short machine-readable kind (``invalid_parameter``), ``message`` what
    the caller can do about it. The application has a handler of its own for this class, so it
    is answered with ``status``, not with the 409 that other argkb errors get.
    """

    def __init__(
        self, status: int, error: str, message: str, *, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.error = error
        self.message = message
        self.headers = headers or {}  # e.g. Retry-After


class NotFound(ArgKBError):
    """No unit, claim or cluster with the key asked for (``argkb serve`` answers 404)."""
