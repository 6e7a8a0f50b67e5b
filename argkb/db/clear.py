"""Empty a database: every node and relationship, and (unless kept) argkb's schema.

Neo4j Community has one user database, so a fresh start is a cleared one: nodes are deleted in
batches (``CALL { } IN TRANSACTIONS``, so a large graph does not need one huge transaction), then
every constraint and every index except the LOOKUP token indexes a new database has too are
dropped. ``argkb init`` (or any load) creates the schema again. The CLI (``argkb db clear``)
decides whether a server may be cleared at all; this function clears what it is given.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from argkb.db import cypher

if TYPE_CHECKING:
    import neo4j

__all__ = ["ClearReport", "clear_database", "contents"]

logger = logging.getLogger(__name__)


@dataclass
class ClearReport:
    """What a clear deleted (or, from :func:`contents`, would delete)."""

    nodes: int
    relationships: int
    constraints: list[str]
    indexes: list[str]


def contents(
    driver: neo4j.Driver, database: str | None = None, *, keep_schema: bool = False
) -> ClearReport:
    """The nodes, relationships, constraints and indexes a clear would delete."""
    from argkb.db.schema import constraints, indexes

    counts = cypher.read(driver, "clear/counts", database=database)[0]
    if keep_schema:
        return ClearReport(counts["nodes"], counts["relationships"], [], [])
    owned = {c["name"] for c in constraints(driver, database)}
    droppable = [
        i["name"] for i in indexes(driver, database) if i["type"] != "LOOKUP" and i["name"]
    ]
    return ClearReport(
        counts["nodes"],
        counts["relationships"],
        sorted(owned),
        sorted(name for name in droppable if name not in owned),
    )


def clear_database(
    driver: neo4j.Driver,
    database: str | None = None,
    *,
    keep_schema: bool = False,
    batch: int = 10_000,
) -> ClearReport:
    """Delete every node and relationship; drop constraints and indexes unless ``keep_schema``.

    Returns what was there (and is now gone).
    """
    report = contents(driver, database, keep_schema=keep_schema)
    logger.info(
        "clearing %d nodes, %d relationships, %d constraints, %d indexes",
        report.nodes,
        report.relationships,
        len(report.constraints),
        len(report.indexes),
    )
    cypher.log_query("clear/nodes", {"batch": batch})
    with driver.session(database=database) as session:
        session.run(cypher.load("clear/nodes"), {"batch": batch}).consume()
    if keep_schema:
        return report
    # constraints first: dropping one drops the index it owns
    for name in report.constraints:
        driver.execute_query(
            cypher.render("clear/drop_constraint", target=name), database_=database
        )
    from argkb.db.schema import indexes

    for index in indexes(driver, database):
        if index["type"] != "LOOKUP":
            driver.execute_query(
                cypher.render("clear/drop_index", target=index["name"]), database_=database
            )
    return report
