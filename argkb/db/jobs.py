"""Steps that rewrite derived data in several transactions, and whether one was interrupted.

A full cluster run drops the clusters of a kind and writes them again batch by batch; SAME_AS
edges and PageRank scores are written the same way. A run killed between two batches (SIGKILL,
Ctrl-C, Neo4j gone) leaves a mix of old, new and missing data that the next run could take for
finished work: an incremental cluster run would place the units of the unwritten batches beside
the written clusters instead of clustering them as the interrupted run would have.

So such a step marks the graph before its first write, with a ``(:Job {name})`` node, and removes
the mark after its last (:func:`running`). A mark that is still there says the step was
interrupted: the next run of that step starts over (``argkb cluster`` rebuilds the kind,
``argkb pagerank`` rewrites every score anyway), and ``argkb status`` lists it
(:mod:`argkb.db.staleness`). Job names: ``cluster:claim``, ``cluster:premise``, ``same_as``,
``pagerank``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from argkb.db import cypher

if TYPE_CHECKING:
    import neo4j


def begin(driver: neo4j.Driver, database: str | None, name: str) -> None:
    """Mark job ``name`` as started (before its first write)."""
    cypher.log_query("jobs/begin", {"name": name})
    driver.execute_query(cypher.load("jobs/begin"), {"name": name}, database_=database)


def finish(driver: neo4j.Driver, database: str | None, name: str) -> None:
    """Remove the mark of job ``name`` (after its last write)."""
    cypher.log_query("jobs/finish", {"name": name})
    driver.execute_query(cypher.load("jobs/finish"), {"name": name}, database_=database)


@contextlib.contextmanager
def running(driver: neo4j.Driver, database: str | None, name: str) -> Iterator[None]:
    """Mark job ``name`` for the duration of the block; the mark stays if the block raises or
    the process dies in it, so the next run knows the job was interrupted."""
    begin(driver, database, name)
    yield
    finish(driver, database, name)


def unfinished(driver: neo4j.Driver, database: str | None = None) -> list[str]:
    """Names of the jobs that started and never finished, oldest first."""
    return [r["name"] for r in cypher.read(driver, "jobs/unfinished", database=database)]
