"""Process settings for the numeric libraries, set before they load."""

from __future__ import annotations

import os


def one_blas_thread() -> None:
    """For the commands that answer queries (``argkb query``, ``argkb serve``): OpenBLAS runs one
    thread, unless the user set ``OPENBLAS_NUM_THREADS``. Call it before numpy is imported
    (OpenBLAS reads the variable when it loads; later it changes nothing).

    The query engine's matrix products are small, and OpenBLAS's worker threads keep spinning
    after each one: on bench/query.py's 100k graph the coreset ranker used 150 ms of client CPU
    per query with them and 89 ms without, and the default hybrid 66 ms against 44 ms when it
    ran after the coreset (CPU that Neo4j and concurrent requests then lack; docs/benchmarks.md).
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
