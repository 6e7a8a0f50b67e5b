"""Nearest-neighbour pairs for clustering: each unit's ``k`` nearest units above a cosine.

Three ways to find them, all giving ``(a, b, cosine)`` with ``a``, ``b`` Neo4j internal ids:

- ``exact``: blocked products of the exported embeddings in the client. Exact and repeatable;
  its cost grows with the square of the units (bench/pipeline.py measures it).
- ``gds``: GDS K-Nearest Neighbors (NN-Descent) on a projection of the units, on the server.
  Approximate; its cost grows about linearly. Runs single-threaded with a fixed seed, so a run is
  repeatable on the same graph.
- ``index``: one vector-index query per unit (HNSW, approximate), the way argkb found neighbours
  before; kept for servers without GDS.

``auto`` (the default) is exact up to :data:`EXACT_UNITS` units, then GDS where the server has
it, else the index. docs/scale.md has the measurements behind the limit.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from argkb.db import cypher
from argkb.errors import ServerVersionError

if TYPE_CHECKING:
    import neo4j
    import numpy as np
    from numpy.typing import NDArray

Method = Literal["auto", "exact", "gds", "index"]
METHODS: tuple[str, ...] = ("auto", "exact", "gds", "index")
EXACT_UNITS = 250_000
"""``auto`` computes neighbours exactly up to this many units."""
_BLOCK_FLOATS = 1 << 25  # 128 MiB of float32 similarities per block of rows

Pairs = tuple["NDArray[np.int64]", "NDArray[np.int64]", "NDArray[np.float64]"]


def choose(driver: neo4j.Driver, database: str | None, units: int, method: Method) -> str:
    """The method ``method`` stands for with ``units`` units (``auto`` decides by size)."""
    if method == "gds" and not has_gds(driver, database):
        raise ServerVersionError(
            "--knn gds: the server lacks Graph Data Science (gds.knn.stream): install the GDS "
            "plugin (`argkb server install` does for the managed server) or use --knn exact|index"
        )
    if method != "auto":
        return method
    if units <= EXACT_UNITS:
        return "exact"
    return "gds" if has_gds(driver, database) else "index"


def has_gds(driver: neo4j.Driver, database: str | None) -> bool:
    rows = cypher.read(driver, "cluster/knn_gds_present", database=database)
    return bool(rows and rows[0]["present"])


def exact_pairs(
    ids: NDArray[np.int64],
    vectors: NDArray[np.float32],
    *,
    k: int,
    min_cos: float,
    base: tuple[NDArray[np.int64], NDArray[np.float32]] | None = None,
    progress: Callable[[int], object] | None = None,
) -> Pairs:
    """Each unit's ``k`` nearest units with cosine >= ``min_cos``, by blocked products: among
    ``base`` (ids, vectors) where given (SAME_AS: claims' nearest premises), else among the
    units themselves. A unit is never its own neighbour."""
    import numpy as np

    base_ids, base_vectors = base if base is not None else (ids, vectors)
    kk = min(k, len(base_ids))
    if kk <= 0 or len(ids) == 0:
        empty = np.zeros(0, np.int64)
        return empty, empty.copy(), np.zeros(0, np.float64)
    queries, targets = _normalised(vectors), _normalised(base_vectors)
    self_at = _positions(ids, base_ids)  # where each unit is among the base (-1: not there)
    block = max(1, _BLOCK_FLOATS // len(base_ids))
    a: list[NDArray[np.int64]] = []
    b: list[NDArray[np.int64]] = []
    cos: list[NDArray[np.float32]] = []
    for start in range(0, len(ids), block):
        stop = min(len(ids), start + block)
        sims = queries[start:stop] @ targets.T
        rows = np.arange(stop - start)
        own = self_at[start:stop] >= 0
        sims[rows[own], self_at[start:stop][own]] = -np.inf  # dropped by the cut below
        top = np.argpartition(-sims, kk - 1, axis=1)[:, :kk]
        top_sims = np.take_along_axis(sims, top, axis=1)
        keep = top_sims >= min_cos
        a.append(ids[np.broadcast_to(rows[:, None] + start, top.shape)[keep]])
        b.append(base_ids[top[keep]])
        cos.append(top_sims[keep])
        if progress:
            progress(stop - start)
    return np.concatenate(a), np.concatenate(b), np.concatenate(cos).astype(np.float64)


def exact_above(
    vectors: NDArray[np.float32],
    base: tuple[NDArray[np.int64], NDArray[np.float32]],
    *,
    min_cos: float,
) -> set[int]:
    """The ids of ``base`` with cosine >= ``min_cos`` to at least one of ``vectors``."""

    base_ids, base_vectors = base
    found: set[int] = set()
    if len(vectors) == 0 or len(base_ids) == 0:
        return found
    queries, targets = _normalised(vectors), _normalised(base_vectors)
    block = max(1, _BLOCK_FLOATS // len(base_ids))
    for start in range(0, len(queries), block):
        near = (queries[start : start + block] @ targets.T >= min_cos).any(axis=0)
        found.update(base_ids[near].tolist())
    return found


def _normalised(vectors: NDArray[np.float32]) -> NDArray[np.float32]:
    import numpy as np

    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.where(norms > 0, norms, 1.0)).astype(np.float32, copy=False)


def _positions(ids: NDArray[np.int64], base_ids: NDArray[np.int64]) -> NDArray[np.int64]:
    """For each of ``ids``, its position in ``base_ids``, or -1."""
    import numpy as np

    if len(base_ids) == 0:
        return np.full(len(ids), -1, np.int64)
    order = np.argsort(base_ids, kind="stable")
    found = order[np.searchsorted(base_ids, ids, sorter=order).clip(0, len(base_ids) - 1)]
    return np.where(base_ids[found] == ids, found, -1)


def gds_pairs(
    driver: neo4j.Driver,
    database: str | None,
    label: str,
    *,
    k: int,
    min_cos: float,
    seed: int = 42,
) -> Pairs:
    """Each unit's ``k`` nearest units with cosine >= ``min_cos``, by GDS kNN on the server."""
    import numpy as np

    graph = f"argkb-knn-{uuid.uuid4().hex[:12]}"
    a: list[int] = []
    b: list[int] = []
    score: list[float] = []
    try:
        driver.execute_query(cypher.render("cluster/knn_gds_project", label=label),
                             {"graph": graph}, database_=database)  # fmt: skip
        with driver.session(database=database) as session:
            # GDS scores cosine as (1 + cos) / 2, like the vector index
            result = session.run(
                cypher.load("cluster/knn_gds_stream"),
                {"graph": graph, "k": k, "min_score": (1.0 + min_cos) / 2.0, "seed": seed},
            )
            for record in result:
                a.append(record[0])
                b.append(record[1])
                score.append(cypher.cosine(record[2]))
    finally:
        driver.execute_query(cypher.load("analytics/drop"), {"graph": graph}, database_=database)
    return np.asarray(a, np.int64), np.asarray(b, np.int64), np.asarray(score, np.float64)


def index_pairs(
    driver: neo4j.Driver,
    database: str | None,
    ids: NDArray[np.int64],
    index: str,
    *,
    k: int,
    min_cos: float,
    batch: int = 500,
    progress: Callable[[int], object] | None = None,
) -> Pairs:
    """Each of ``ids``'s ``k`` nearest units in vector index ``index`` with cosine >= ``min_cos``
    (the units need not be the index's own: SAME_AS asks claims' nearest premises)."""
    import numpy as np
    from neo4j import RoutingControl

    query = cypher.load("cluster/knn")
    a: list[int] = []
    b: list[int] = []
    score: list[float] = []
    for start in range(0, len(ids), batch):
        chunk = [int(x) for x in ids[start : start + batch]]
        records, _, _ = driver.execute_query(
            query,
            {"ids": chunk, "index": index, "k": k + 1, "min_score": (1.0 + min_cos) / 2.0},
            database_=database, routing_=RoutingControl.READ,
        )  # fmt: skip
        for r in records:
            a.append(r["a"])
            b.append(r["b"])
            # Neo4j reports cosine as (1 + cos) / 2 in [0, 1]; convert back to cos
            score.append(cypher.cosine(r["score"]))
        if progress:
            progress(len(chunk))
    return np.asarray(a, np.int64), np.asarray(b, np.int64), np.asarray(score, np.float64)
