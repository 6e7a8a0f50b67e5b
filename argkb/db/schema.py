"""Create the argkb schema (``cypher/schema.cypher``) and describe what a database holds."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from argkb.db import cypher
from argkb.errors import ServerVersionError

if TYPE_CHECKING:
    import neo4j

logger = logging.getLogger(__name__)

DEFAULT_DIMENSIONS = 384  # all-MiniLM-L6-v2
# What argkb's Cypher uses, and the Neo4j version that brought it (checked by check_version).
SERVER_FEATURES: tuple[tuple[tuple[int, int], str], ...] = (
    ((5, 15), "vector indexes (CREATE VECTOR INDEX, used by argkb init and every query)"),
    ((5, 18), "vector.similarity.cosine (claim retrieval)"),
    ((5, 26), "dynamic labels and relationship types (SET n:$(...), used by every loader)"),
)
MIN_SERVER = max(version for version, _ in SERVER_FEATURES)
VECTOR_INDEXES = ("claim_embedding", "premise_embedding")
AWAIT_SECONDS = 24 * 3600  # the longest init_schema waits for indexes it created to populate
DEFAULT_ANALYZER = "standard-no-stop-words"  # Neo4j's, for a full-text index that names none


@dataclass(frozen=True)
class ServerInfo:
    version: str
    edition: str
    plugins: dict[str, str | None]  # plugin -> version, None when missing


@dataclass
class SchemaReport:
    created: int
    rebuilt: list[dict[str, str]] = field(default_factory=list)  # outdated_indexes, built again
    constraints: list[dict[str, Any]] = field(default_factory=list)
    indexes: list[dict[str, Any]] = field(default_factory=list)


def _read(driver: neo4j.Driver, query: str, database: str | None, **params: Any) -> list[dict]:
    from neo4j import RoutingControl

    records, _, _ = driver.execute_query(
        query, params, database_=database, routing_=RoutingControl.READ
    )
    return [record.data() for record in records]


def check_version(version: str) -> None:
    """Raise :class:`ServerVersionError` when ``version`` lacks a feature argkb's Cypher uses.

    The message names each missing feature and the version that brought it.
    """
    try:
        found = tuple(int(part) for part in version.split(".")[:2])
    except ValueError as err:
        raise ServerVersionError(f"cannot read the Neo4j version {version!r}") from err
    missing = [f"{what} needs {v[0]}.{v[1]}+" for v, what in SERVER_FEATURES if found < v]
    if missing:
        need = ".".join(str(part) for part in MIN_SERVER)
        raise ServerVersionError(
            f"Neo4j {version} is too old for argkb (needs {need}+): "
            + "; ".join(missing)
            + ". Use 'argkb server start' for a managed 5.26 LTS."
        )


def server_info(driver: neo4j.Driver, database: str | None = None) -> ServerInfo:
    """Version, edition and plugins of the server; raises if it lacks what argkb uses."""
    row = _read(driver, cypher.load("status/components"), database)[0]
    version = str(row["version"])
    check_version(version)
    present = set(_read(driver, cypher.load("status/plugins"), database)[0]["present"])
    plugins: dict[str, str | None] = {}
    for plugin in ("gds", "apoc"):
        if f"{plugin}.version" in present:
            plugins[plugin] = str(
                _read(driver, cypher.load(f"status/{plugin}_version"), database)[0]["v"]
            )
        else:
            plugins[plugin] = None
    return ServerInfo(version, str(row["edition"]), plugins)


def indexes(driver: neo4j.Driver, database: str | None = None) -> list[dict[str, Any]]:
    return _read(driver, cypher.load("status/indexes"), database)


def constraints(driver: neo4j.Driver, database: str | None = None) -> list[dict[str, Any]]:
    return _read(driver, cypher.load("status/constraints"), database)


def expected_schema() -> dict[str, str]:
    """Every constraint and index ``cypher/schema.cypher`` creates: name -> kind (``CONSTRAINT``,
    ``RANGE``, ``FULLTEXT``, ``VECTOR``)."""
    found = {}
    for statement in cypher.statements("schema"):
        match = re.match(r"CREATE\s+(CONSTRAINT|FULLTEXT INDEX|VECTOR INDEX|INDEX)\s+(\w+)\s",
                         statement)  # fmt: skip
        if match:
            kind = match.group(1).removesuffix(" INDEX")
            found[match.group(2)] = "RANGE" if kind == "INDEX" else kind
    return found


def fulltext_statements() -> dict[str, str]:
    """argkb's full-text indexes: name -> its idempotent CREATE statement in cypher/schema."""
    found = {}
    for statement in cypher.statements("schema"):
        match = re.match(r"CREATE\s+FULLTEXT\s+INDEX\s+(\w+)\s", statement)
        if match:
            found[match.group(1)] = statement
    return found


def fulltext_analyzers() -> dict[str, str]:
    """The Lucene analyzer each full-text index of ``cypher/schema.cypher`` asks for (Neo4j's
    default where its statement names none)."""
    found = {}
    for name, statement in fulltext_statements().items():
        match = re.search(r"`fulltext\.analyzer`\s*:\s*'([^']+)'", statement)
        found[name] = match.group(1) if match else DEFAULT_ANALYZER
    return found


def outdated_indexes(found_indexes: list[dict[str, Any]]) -> list[dict[str, str]]:
    """argkb's full-text indexes that exist with another analyzer than the schema's (made by an
    older argkb), as ``{name, kind, have, want}``: ``argkb init`` builds them again."""
    want = fulltext_analyzers()
    outdated = []
    for index in found_indexes:
        if index["name"] in want and index["type"] == "FULLTEXT":
            have = (index.get("config") or {}).get("fulltext.analyzer") or DEFAULT_ANALYZER
            if have != want[index["name"]]:
                outdated.append({"name": index["name"], "kind": "FULLTEXT", "have": have,
                                 "want": want[index["name"]]})  # fmt: skip
    return outdated


def missing_schema(
    found_constraints: list[dict[str, Any]], found_indexes: list[dict[str, Any]]
) -> list[dict[str, str]]:
    """The constraints and indexes of argkb's schema that do not exist (a bulk load killed before
    it rebuilt its full-text indexes, an index dropped by hand), as ``{name, kind}``."""
    have = {c["name"] for c in found_constraints} | {i["name"] for i in found_indexes}
    return [
        {"name": name, "kind": kind} for name, kind in expected_schema().items() if name not in have
    ]


def incomplete_corpora(driver: neo4j.Driver, database: str | None = None) -> list[dict[str, Any]]:
    """Loads that began and never finished (killed, or Neo4j stopped); running them again
    completes them."""
    return _read(driver, cypher.load("status/incomplete_corpora"), database)


def load_name(load: dict[str, Any]) -> str:
    """``load CID (file, ...)``: how a warning or an error names a load of
    :func:`incomplete_corpora`."""
    return f"load {load['cid']} ({', '.join(load['files'] or [])})"


def corpora(driver: neo4j.Driver, database: str | None = None) -> list[dict[str, Any]]:
    """Every loaded corpus: id, status, files and arguments (None while it loads)."""
    return _read(driver, cypher.load("status/corpora"), database)


def init_schema(
    driver: neo4j.Driver, database: str | None = None, *, dimensions: int = DEFAULT_DIMENSIONS
) -> SchemaReport:
    """Run every statement of ``cypher/schema.cypher``; idempotent.

    When it created an index, it returns once every index is online: a query does without an
    index that is still populating (:func:`argkb.retrieve.routes.indexes_ready`), so indexes
    recreated over a loaded graph would otherwise answer with a note for a while. A full-text
    index made with another analyzer (:func:`outdated_indexes`) is dropped and built again. An
    existing vector index built for another dimension is reported, not silently kept.
    """
    server_info(driver, database)
    rebuilt = outdated_indexes(indexes(driver, database))
    for outdated in rebuilt:  # created again below, with the schema's analyzer
        logger.warning("full-text index %s was made with the analyzer %s: building it again with "
                       "%s (minutes on a large graph)", outdated["name"], outdated["have"],
                       outdated["want"])  # fmt: skip
        driver.execute_query(cypher.render("ingest/drop_index", index=outdated["name"]),
                             database_=database)  # fmt: skip
    created = 0
    for statement in cypher.statements("schema"):
        _, summary, _ = driver.execute_query(
            statement, {"dimensions": dimensions}, database_=database
        )
        counters = summary.counters
        created += counters.indexes_added + counters.constraints_added
    created -= len(rebuilt)
    if created or rebuilt:
        driver.execute_query(
            "CALL db.awaitIndexes($seconds)", {"seconds": AWAIT_SECONDS}, database_=database
        )
    found = indexes(driver, database)
    for index in found:
        if index["name"] in VECTOR_INDEXES:
            have = (index.get("config") or {}).get("vector.dimensions")
            if have is not None and int(have) != dimensions:
                raise ServerVersionError(
                    f"vector index {index['name']} has {have} dimensions but the embedding "
                    f"model has {dimensions}: drop it (DROP INDEX {index['name']}) and run "
                    "'argkb init' again, then re-embed."
                )
    return SchemaReport(created, rebuilt, constraints(driver, database), found)


def graph_counts(driver: neo4j.Driver, database: str | None = None) -> dict[str, dict[str, int]]:
    """Nodes per label and relationships per type, from the count store (cheap at any size), and
    PREMISE_OF edges by stance source (``premise_stance``: data, model, unknown; one scan)."""
    row = _read(driver, cypher.load("status/labels"), database)[0]
    labels = {
        label: _read(driver, cypher.render("status/count_label", label=label), database)[0]["count"]
        for label in sorted(row["labels"])
    }
    types = {
        rel: _read(driver, cypher.render("status/count_type", type=rel), database)[0]["count"]
        for rel in sorted(row["types"])
    }
    counts = {"labels": labels, "relationships": types}
    if types.get("PREMISE_OF"):  # where premise stances come from: data, model, still unknown
        row = _read(driver, cypher.load("stance/counts"), database)[0]
        counts["premise_stance"] = {key: int(row[key]) for key in ("data", "model", "unknown")}
    return counts
