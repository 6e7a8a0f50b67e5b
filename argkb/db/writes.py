"""Batched writes: ``UNWIND $rows`` queries, one transaction per batch.

Each batch runs through ``driver.execute_query``, i.e. in one managed write transaction that the
driver retries on transient errors (not an auto-commit transaction): a batch is written whole or
not at all.

Callers build the batches lazily (a generator of ``(query name, parameters)``), so only the batches
in flight are in memory; with ``workers > 1`` several run at once over one driver, which pays when
they touch disjoint nodes (no lock waits) and the client's encoding overlaps the server's work.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar

from argkb.db import cypher
from argkb.errors import ConfigError

if TYPE_CHECKING:
    import neo4j

T = TypeVar("T")
Job = tuple[str, dict[str, Any]]  # the name of a query under cypher/ and its parameters


def chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Consecutive lists of ``size`` items (the last one may be shorter), read lazily."""
    if size < 1:
        raise ConfigError(f"batch size must be >= 1, got {size}")
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def run_writes(
    driver: neo4j.Driver,
    jobs: Iterable[Job],
    *,
    database: str | None = None,
    workers: int = 1,
) -> None:
    """Run write queries ``cypher/<name>.cypher``, each in its own transaction, with at most
    ``workers`` in flight; each is logged at debug level (:func:`argkb.db.cypher.log_query`).

    ``jobs`` is consumed lazily: at most ``2 * workers`` batches exist at a time, so memory stays
    bounded. With ``workers > 1`` the first failure is raised once the batches already running
    have finished.
    """
    if workers <= 1:
        for name, params in jobs:
            cypher.log_query(name, params)
            driver.execute_query(cypher.load(name), params, database_=database)
        return
    with ThreadPoolExecutor(workers) as pool:
        pending: set[Future[Any]] = set()
        for name, params in jobs:
            if len(pending) >= 2 * workers:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    future.result()
            cypher.log_query(name, params)
            query = cypher.load(name)
            pending.add(pool.submit(driver.execute_query, query, params, database_=database))
        for future in pending:
            future.result()
