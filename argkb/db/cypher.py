"""The one way argkb reads Cypher: named ``.cypher`` files under ``cypher/`` (``argkb.cypher``).

``load("schema")`` reads ``cypher/schema.cypher``; ``load("ingest/units")`` reads
``cypher/ingest/units.cypher``. Values are always ``$parameters``; the rare dynamic label or
relationship type goes through :func:`quote_identifier`.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from argkb.errors import QueryFileError

if TYPE_CHECKING:
    import neo4j

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

    Backticks inside the name are doubled, as Cypher's grammar requires, so no name can close
    the quote early.
    """
    if not name:
        raise QueryFileError("an identifier cannot be empty")
    return "`" + name.replace("`", "``") + "`"


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


def read(driver: neo4j.Driver, name: str, database: str | None = None, **params: Any) -> list[Any]:
    """The records of the read query ``cypher/<name>.cypher`` (a managed, read-routed query)."""
    from neo4j import RoutingControl

    records, _, _ = driver.execute_query(
        load(name), params, database_=database, routing_=RoutingControl.READ
    )
    return list(records)
