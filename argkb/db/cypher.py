"""The one way argkb reads Cypher: named ``.cypher`` files under ``cypher/`` (``argkb.cypher``).

``load("schema")`` reads ``cypher/schema.cypher``; ``load("ingest/units")`` reads
``cypher/ingest/units.cypher``. Values are always ``$parameters``; the rare dynamic label or
relationship type goes through :func:`quote_identifier`.

Queries run through :func:`read` and :func:`write` are logged on the ``argkb.db.cypher`` logger at
debug level, with their parameters (long lists and texts abbreviated) and the time and rows they
took, as the official driver logs its traffic; ``argkb -vv`` shows them.
"""

from __future__ import annotations

import logging
import re
import time
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from argkb.errors import QueryFileError

if TYPE_CHECKING:
    import neo4j

logger = logging.getLogger(__name__)

_NAME = re.compile(r"^[a-z0-9_]+(/[a-z0-9_]+)*$")


@cache
def load(name: str) -> str:
    """The text of ``cypher/<name>.cypher``."""
    if not _NAME.match(name):
        raise QueryFileError(f"invalid query name {name!r}: use lower_case path parts like 'a/b'")
    *folders, stem = name.split("/")
    target = resources.files("argkb.cypher")
    for folder in folders:
        target = target / folder
    target = target / f"{stem}.cypher"
    try:
        return target.read_text(encoding="utf-8")
    except FileNotFoundError as err:
        raise QueryFileError(
            f"no Cypher file cypher/{name}.cypher in the installed package"
        ) from err


def statements(name: str) -> list[str]:
    """The statements of a multi-statement file, split at ``;`` that ends a line.

    Comment lines (``//``) are dropped; a statement never contains a line-final ``;`` inside a
    string in our files, which the schema test checks by running every statement.
    """
    body = "\n".join(line for line in load(name).splitlines() if not line.lstrip().startswith("//"))
    parts = re.split(r";[ \t]*(?:\n|$)", body)
    return [part.strip() for part in parts if part.strip()]


def names() -> list[str]:
    """Every query name shipped in the package, e.g. ``['schema', 'ingest/units', ...]``."""
    root = resources.files("argkb.cypher")
    found: list[str] = []

    def walk(node: object, prefix: str) -> None:
        for child in node.iterdir():  # type: ignore[attr-defined]
            if child.is_dir():
                walk(child, f"{prefix}{child.name}/")
            elif child.name.endswith(".cypher"):
                found.append(prefix + child.name[: -len(".cypher")])

    walk(root, "")
    return sorted(found)


def quote_identifier(name: str) -> str:
    """Backtick-quote a label, relationship type or property key for Cypher.

    Backticks inside the name are doubled, as Cypher's grammar requires, and every backslash
    is written as the escape ``\\u005c``: Neo4j reads ``\\uXXXX`` escapes inside backticks
    too, so a name holding the six characters ``\\u0060`` (a label in a shared database, an
    index's name) closed the quote and ran the rest of the name as Cypher. With every backslash
    escaped no escape is left in the name, and no name can close the quote early.
    """
    if not name:
        raise QueryFileError("an identifier cannot be empty")
    return "`" + name.replace("\\", "\\u005c").replace("`", "``") + "`"


_SLOT = re.compile(r"\{\{(\w+)\}\}")


def render(name: str, **identifiers: str) -> str:
    """``load(name)`` with each ``{{slot}}`` replaced by ``quote_identifier(identifiers[slot])``.

    Only labels, relationship types and property keys go into slots; values stay parameters.
    """

    def fill(match: re.Match[str]) -> str:
        slot = match.group(1)
        if slot not in identifiers:
            raise QueryFileError(f"cypher/{name}.cypher needs identifier {slot!r}")
        return quote_identifier(identifiers[slot])

    return _SLOT.sub(fill, load(name))


_LIST_SHOWN = 3
_TEXT_SHOWN = 80


def brief(value: Any) -> Any:
    """``value`` shortened for a log line: long lists (vectors, row batches) and texts cut."""
    if isinstance(value, str):
        return (
            value if len(value) <= _TEXT_SHOWN else f"{value[:_TEXT_SHOWN]}... ({len(value)} chars)"
        )
    if isinstance(value, list | tuple):
        if len(value) <= _LIST_SHOWN:
            return [brief(item) for item in value]
        return [*(brief(item) for item in value[:_LIST_SHOWN]), f"... ({len(value)} items)"]
    if isinstance(value, dict):
        return {key: brief(item) for key, item in value.items()}
    return value


def log_query(name: str, params: dict[str, Any]) -> None:
    """Log the query ``cypher/<name>.cypher`` and its parameters at debug level."""
    if logger.isEnabledFor(logging.DEBUG):
        logger.debug("cypher/%s.cypher %s", name, brief(params))


def read(
    driver: neo4j.Driver, name: str, *, database: str | None = None, **params: Any
) -> list[Any]:
    """The records of the read query ``cypher/<name>.cypher`` (a managed, read-routed query)."""
    from neo4j import RoutingControl

    log_query(name, params)
    started = time.perf_counter()
    records, _, _ = driver.execute_query(
        load(name), params, database_=database, routing_=RoutingControl.READ
    )
    logger.debug("cypher/%s.cypher: %d rows in %.1f ms", name, len(records),
                 1000 * (time.perf_counter() - started))  # fmt: skip
    return list(records)


def read_columns(
    driver: neo4j.Driver, name: str, *, database: str | None = None, **params: Any
) -> dict[str, list[Any]]:
    """The one row of the read query ``cypher/<name>.cypher``, whose columns are lists
    (``collect(...)`` of equal length): many values answered as a few lists decode several
    times faster in the driver than a record each (docs/benchmarks.md, query latency)."""
    records = read(driver, name, database=database, **params)
    if len(records) != 1:
        raise ValueError(f"cypher/{name}.cypher returned {len(records)} rows, expected one")
    # not Record.data(), which walks every element of every list to convert graph types
    return dict(zip(records[0].keys(), records[0].values(), strict=True))


def cosine(similarity: Any) -> Any:
    """The cosine of a Neo4j vector similarity (a float or a NumPy array): the vector indexes
    and ``vector.similarity.cosine`` answer (1 + cos) / 2."""
    return 2.0 * similarity - 1.0


def read_scores(
    driver: neo4j.Driver, name: str, *, database: str | None = None, **params: Any
) -> dict[int, float]:
    """id -> score from a read query answering the parallel lists ``id`` and ``score``."""
    columns = read_columns(driver, name, database=database, **params)
    return dict(zip(columns["id"], map(float, columns["score"]), strict=True))


def write(
    driver: neo4j.Driver, name: str, *, database: str | None = None, **params: Any
) -> dict[str, int]:
    """Run the write query ``cypher/<name>.cypher`` (managed, retried); returns its counters."""
    log_query(name, params)
    started = time.perf_counter()
    _, summary, _ = driver.execute_query(load(name), params, database_=database)
    counters = {
        key: value
        for key, value in vars(summary.counters).items()
        if not key.startswith("_") and isinstance(value, int) and not isinstance(value, bool)
    }
    counters = {key: value for key, value in counters.items() if value}
    logger.debug("cypher/%s.cypher: %s in %.1f ms", name, counters or "no changes",
                 1000 * (time.perf_counter() - started))  # fmt: skip
    return counters
