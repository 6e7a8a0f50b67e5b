"""The Cypher browsing library: named, documented, parameterised queries in ``cypher/browse/``.

Each file is a query a person pastes into Neo4j Browser. It starts with a comment block that this
module reads::

    // Title (Browser names a favourite after the first comment line)
    // Shows: what the query shows, on as many
    //   indented lines as it needs.
    // Returns: graph | table
    // Parameters:
    //   $claim (string): what it is
    //   $limit (integer, default 25): what it is
    // :param claim => 'We should abandon fossil fuels'
    // :param limit => 25

``// Parameters: none`` for a query without parameters. Types are ``string``, ``integer`` and
``float``; every parameter has an example (a Browser ``:param`` line, pasted as is before the
query); a default lets ``argkb cypher run`` leave it out.
"""

from __future__ import annotations

import logging
import re
import shlex
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from argkb.db import cypher
from argkb.errors import ExploreError, QueryFileError

if TYPE_CHECKING:
    import neo4j

logger = logging.getLogger(__name__)

FOLDER = "browse"
ParamType = Literal["string", "integer", "float"]
_TYPES: tuple[ParamType, ...] = ("string", "integer", "float")
_PARAM = re.compile(
    r"^//\s+\$(?P<name>\w+) \((?P<type>\w+)(?:, default (?P<default>[^)]+))?\): (?P<doc>.+)$"
)
_EXAMPLE = re.compile(r"^//\s*:param (?P<name>\w+) => (?P<value>.+?);?\s*$")
_USED = re.compile(r"\$(\w+)")
_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$")
_CHOICES = re.compile(r"^'[^']*'(?:, '[^']*')* or '[^']*'$")


@dataclass(frozen=True)
class Parameter:
    """One ``$parameter`` of a browsing query."""

    name: str
    type: ParamType
    doc: str
    example: Any
    default: Any = None

    @property
    def choices(self) -> tuple[str, ...]:
        """The values a string parameter takes when its doc lists nothing else (``'claim' or
        'premise'``); empty when any text goes."""
        if self.type != "string" or not _CHOICES.match(self.doc):
            return ()
        return tuple(re.findall(r"'([^']*)'", self.doc))


@dataclass(frozen=True)
class BrowseQuery:
    """A browsing query: its header, read from the file, and the file's text."""

    name: str
    title: str
    shows: str
    returns: Literal["graph", "table"]
    parameters: tuple[Parameter, ...]
    text: str

    @property
    def body(self) -> str:
        """The query without its comment header."""
        lines = self.text.splitlines()
        start = next(i for i, line in enumerate(lines) if not line.startswith("//"))
        return "\n".join(lines[start:]).strip()

    @property
    def examples(self) -> dict[str, Any]:
        """Each parameter's example value, typed."""
        return {p.name: p.example for p in self.parameters}

    def param_lines(self) -> list[str]:
        """The Browser ``:param`` lines that set every parameter to its example."""
        return [f":param {p.name} => {literal(p.example)}" for p in self.parameters]


def literal(value: Any) -> str:
    """A Cypher literal for a string, integer or float example."""
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return repr(value)


def _parse_literal(text: str, where: str) -> Any:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1].replace("\\'", "'").replace('\\"', '"').replace("\\\\", "\\")
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    raise QueryFileError(f"{where}: {text!r} is not a string, integer or float literal")


def _typed(value: Any, kind: ParamType) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, int | float) and not isinstance(value, bool)


def parse(name: str, text: str) -> BrowseQuery:
    """Read the header of ``cypher/browse/<name>.cypher``; a malformed header is an error."""
    where = f"cypher/{FOLDER}/{name}.cypher"
    header = [line.rstrip() for line in text.splitlines()]
    header = header[: next((i for i, line in enumerate(header) if not line.startswith("//")), 0)]
    if not header or not header[0][2:].strip():
        raise QueryFileError(f"{where}: the first line must be a '// Title' comment")
    title = header[0][2:].strip()
    shows: list[str] = []
    returns = ""
    declared: dict[str, tuple[ParamType, str, Any]] = {}
    examples: dict[str, Any] = {}
    no_params = False
    section = ""
    for line in header[1:]:
        content = line[2:].strip()
        if content.startswith("Shows:"):
            section = "shows"
            shows.append(content[len("Shows:") :].strip())
        elif content.startswith("Returns:"):
            section, returns = "", content[len("Returns:") :].strip()
        elif content.startswith("Parameters:"):
            section = "params"
            no_params = content[len("Parameters:") :].strip() == "none"
        elif (match := _EXAMPLE.match(line)) is not None:
            examples[match["name"]] = _parse_literal(match["value"], where)
        elif section == "params" and (match := _PARAM.match(line)) is not None:
            kind = match["type"]
            if kind not in _TYPES:
                raise QueryFileError(f"{where}: ${match['name']} has unknown type {kind!r}")
            default = match["default"]
            typed_default = None if default is None else _parse_literal(default, where)
            declared[match["name"]] = (kind, match["doc"].strip(), typed_default)
        elif section == "shows" and content:
            shows.append(content)
        elif content:
            raise QueryFileError(f"{where}: cannot read header line {line!r}")
    if returns not in ("graph", "table"):
        raise QueryFileError(f"{where}: needs '// Returns: graph' or '// Returns: table'")
    if not shows:
        raise QueryFileError(f"{where}: needs a '// Shows:' description")
    body = "\n".join(line for line in text.splitlines() if not line.startswith("//"))
    used = set(_USED.findall(body))
    if no_params and declared:
        raise QueryFileError(f"{where}: says 'Parameters: none' but declares some")
    if used != set(declared):
        raise QueryFileError(
            f"{where}: parameters used {sorted(used)} but declared {sorted(declared)}"
        )
    params = []
    for pname, (kind, doc, default) in declared.items():
        if pname not in examples:
            raise QueryFileError(f"{where}: ${pname} has no ':param {pname} => ...' example")
        for value, what in ((examples[pname], "example"), (default, "default")):
            if value is not None and not _typed(value, kind):
                raise QueryFileError(f"{where}: the {what} of ${pname} is not a {kind}")
        params.append(Parameter(pname, kind, doc, examples[pname], default))
    extra = set(examples) - set(declared)
    if extra:
        raise QueryFileError(f"{where}: examples for undeclared parameters {sorted(extra)}")
    return BrowseQuery(name, title, " ".join(shows), returns, tuple(params), text)  # type: ignore[arg-type]


def names() -> list[str]:
    """The names of the browsing queries, e.g. ``['bridges', 'claim_arguments', ...]``."""
    prefix = f"{FOLDER}/"
    return [name[len(prefix) :] for name in cypher.names() if name.startswith(prefix)]


def get(name: str) -> BrowseQuery:
    """The browsing query ``name``; an unknown name is an error that lists the known ones."""
    known = names()
    if name not in known:
        raise ExploreError(f"no browsing query {name!r}; known: {', '.join(known)}")
    return parse(name, cypher.load(f"{FOLDER}/{name}"))


def all_queries() -> list[BrowseQuery]:
    return [get(name) for name in names()]


def bind(query: BrowseQuery, given: dict[str, str]) -> dict[str, Any]:
    """Typed parameters for ``query`` from ``name -> text`` pairs (as typed on a command line).

    Defaults fill what is not given; a missing, unknown or mistyped parameter is an error that
    names it.
    """
    declared = {p.name: p for p in query.parameters}
    unknown = sorted(set(given) - set(declared))
    if unknown:
        takes = ", ".join(declared) or "no parameters"
        raise ExploreError(f"{query.name} has no parameter {unknown[0]!r} (it takes: {takes})")
    bound: dict[str, Any] = {}
    for param in query.parameters:
        if param.name not in given:
            if param.default is None:
                raise ExploreError(
                    f"missing parameter {param.name!r} ({param.type}) for {query.name}, "
                    f"e.g. --param {shlex.quote(f'{param.name}={param.example}')}"
                )
            bound[param.name] = param.default
            continue
        raw = given[param.name]
        try:
            if param.type == "integer":
                bound[param.name] = int(raw)
                if not -(2**63) <= bound[param.name] < 2**63:  # Cypher's INTEGER is 64-bit
                    raise ExploreError(f"parameter {param.name!r} of {query.name} takes a "
                                       f"64-bit integer, got {raw!r}")  # fmt: skip
            elif param.type == "float":
                bound[param.name] = float(raw)
            elif param.choices and raw not in param.choices:
                raise ExploreError(
                    f"parameter {param.name!r} of {query.name} takes {param.doc}, got {raw!r}"
                )
            else:
                bound[param.name] = raw
        except ValueError as err:
            raise ExploreError(
                f"parameter {param.name!r} of {query.name} takes an {param.type}, got {raw!r}"
                if param.type == "integer"
                else f"parameter {param.name!r} of {query.name} takes a {param.type}, got {raw!r}"
            ) from err
    return bound


_KEYS = ("uid", "aid", "sid", "cid")


def _hidden(key: str) -> bool:
    """Vectors (``embedding``, ``negation_embedding``: 384 floats each) are noise in a row."""
    return key == "embedding" or key.endswith("_embedding")


def plain(value: Any) -> Any:
    """A driver value as JSON-ready Python: nodes, relationships and paths become dicts."""
    from neo4j.graph import Node, Path, Relationship

    if isinstance(value, Node):
        props = {k: plain(v) for k, v in value.items() if not _hidden(k)}
        key = next((props[k] for k in _KEYS if k in props), value.element_id)
        return {"key": key, "labels": sorted(value.labels), "properties": props}
    if isinstance(value, Relationship):
        return {
            "type": value.type,
            "start": plain(value.start_node)["key"] if value.start_node else None,
            "end": plain(value.end_node)["key"] if value.end_node else None,
            "properties": {k: plain(v) for k, v in value.items()},
        }
    if isinstance(value, Path):
        return {
            "nodes": [plain(node) for node in value.nodes],
            "relationships": [plain(rel) for rel in value.relationships],
        }
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if hasattr(value, "iso_format"):  # neo4j.time types
        return value.iso_format()
    return value


def run(
    driver: neo4j.Driver,
    name: str,
    params: dict[str, Any],
    *,
    database: str | None = None,
) -> list[dict[str, Any]]:
    """The rows of the browsing query ``name`` with bound ``params``, as plain Python."""
    from neo4j import RoutingControl
    from neo4j.exceptions import Neo4jError

    query = get(name)
    cypher.log_query(f"{FOLDER}/{name}", params)
    started = time.perf_counter()
    try:
        records, _, _ = driver.execute_query(
            query.text, params, database_=database, routing_=RoutingControl.READ
        )
    except Neo4jError as err:
        raise ExploreError(f"{name}: the server refused the query: {err.message}") from err
    logger.debug("cypher/%s/%s.cypher: %d rows in %.1f ms", FOLDER, name, len(records),
                 1000 * (time.perf_counter() - started))  # fmt: skip
    return [{key: plain(value) for key, value in record.items()} for record in records]


def export_zip(path: Path) -> list[str]:
    """Write every browsing query into a zip that Neo4j Browser imports as favourites.

    The files sit in an ``argkb/`` folder of the archive, which Browser shows as a folder of
    favourites. Returns the names written.
    """
    written = []
    try:
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for query in all_queries():
                archive.writestr(f"argkb/{query.name}.cypher", query.text)
                written.append(query.name)
    except OSError as err:
        raise ExploreError(f"cannot write {path}: {err.strerror or err}") from err
    return written
