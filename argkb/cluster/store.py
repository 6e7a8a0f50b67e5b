"""Offline clustering in Neo4j: claim clusters, premise clusters and SAME_AS edges.

1. Export the embeddings of all claims (or premises) page by page.
2. Find each unit's ``k`` nearest neighbours above the similarity the cut allows
   (:mod:`argkb.cluster.knn`: exact blocked products up to 250,000 units, then GDS kNN on the
   server, or the vector index where the server has no GDS).
3. Cluster each connected component exactly (:mod:`argkb.cluster.hierarchy`).
4. Replace the ``(:Cluster {kind})`` nodes and ``IN_CLUSTER`` edges of that kind; for premise
   clusters also store their claim frequencies ``cf_pro`` / ``cf_con``.

``SAME_AS`` edges (semantic reuse) link a claim to premises whose embedding is within the
``same_as`` similarity: a conclusion reused as a premise in other words.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Literal

from argkb.cluster import knn
from argkb.cluster.hierarchy import Linkage, cluster_graph
from argkb.db import cypher, jobs
from argkb.db.writes import chunks, run_writes

if TYPE_CHECKING:
    import neo4j
    import numpy as np
    from numpy.typing import NDArray

Kind = Literal["claim", "premise"]
# Premise cut and SAME_AS threshold tuned on ArgKP train (bench/tune_argkp.py, docs/evaluation.md);
# the claim cut is not tuned: ArgKP's claims are its 28 topics, with no paraphrases to learn from.
DEFAULT_CUT: dict[str, float] = {"claim": 0.25, "premise": 0.40}
DEFAULT_LINKAGE: dict[str, Linkage] = {"claim": "average", "premise": "complete"}
DEFAULT_SAME_AS = 0.60
DEFAULT_K = 30
"""Nearest neighbours found per unit, the graph the clusters are cut from."""
_INDEX = {"claim": "claim_embedding", "premise": "premise_embedding"}
_LABEL = {"claim": "Claim", "premise": "Premise"}


@dataclass
class ClusterRun:
    kind: str
    method: str
    stats: dict[str, int]
    pairs: int
    seconds: dict[str, float]
    mode: str = "rebuild"  # or "incremental" (argkb.cluster.update)
    reason: str = ""  # why this mode was chosen
    new_units: int = 0  # incremental: units that had no cluster of this kind
    joined: int = 0  # incremental: of those, placed into an existing cluster
    new_clusters: int = 0  # incremental: clusters made of the others
    touched: int = 0  # premise clusters whose cf_pro / cf_con were computed again
    knn: str = "index"  # how neighbours were found (argkb.cluster.knn)


def export_vectors(
    driver: neo4j.Driver, label: str, *, database: str | None = None, page: int = 5000
) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
    """Internal ids and embeddings of every unit with ``label`` that has an embedding."""
    query = cypher.render("cluster/export_vectors", label=label)
    return paged_vectors(driver, query, {}, database=database, page=page)


def paged_vectors(
    driver: neo4j.Driver,
    query: str,
    params: dict[str, Any],
    *,
    database: str | None = None,
    page: int = 5000,
) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
    """Ids and vectors from ``query`` (rows ``id``, ``vector`` in id order after ``$after``,
    at most ``$limit``), read page by page."""
    import numpy as np
    from neo4j import RoutingControl

    ids: list[int] = []
    chunks: list[NDArray[np.float32]] = []
    after = -1
    while True:
        records, _, _ = driver.execute_query(
            query, {**params, "after": after, "limit": page}, database_=database,
            routing_=RoutingControl.READ,
        )  # fmt: skip
        if not records:
            break
        ids.extend(r["id"] for r in records)
        chunks.append(np.asarray([r["vector"] for r in records], dtype=np.float32))
        after = records[-1]["id"]
    if not ids:
        return np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32)
    return np.asarray(ids, dtype=np.int64), np.vstack(chunks)


def cluster_units(
    driver: neo4j.Driver,
    database: str | None = None,
    *,
    kind: Kind,
    cut: float | None = None,
    linkage: Linkage | None = None,
    k: int = DEFAULT_K,
    knn_method: knn.Method = "auto",
    progress: Callable[[int], object] | None = None,
) -> ClusterRun:
    """Cluster all claims or all premises and store the clusters (replacing earlier ones);
    ``knn_method`` says how to find neighbours (:mod:`argkb.cluster.knn`)."""
    import numpy as np

    cut = DEFAULT_CUT[kind] if cut is None else cut
    linkage = linkage or DEFAULT_LINKAGE[kind]
    seconds: dict[str, float] = {}
    clock = time.perf_counter()
    corpora = pending_corpora(driver, database)
    ids, vectors = export_vectors(driver, _LABEL[kind], database=database)
    seconds["export"] = time.perf_counter() - clock
    clock = time.perf_counter()
    used = knn.choose(driver, database, len(ids), knn_method)
    min_cos = 1.0 - cut  # a pair within cosine distance `cut`
    if used == "exact":
        a, b, sim = knn.exact_pairs(ids, vectors, k=k, min_cos=min_cos, progress=progress)
    elif used == "gds":
        a, b, sim = knn.gds_pairs(driver, database, _LABEL[kind], k=k, min_cos=min_cos)
    else:
        a, b, sim = knn.index_pairs(driver, database, ids, _INDEX[kind], k=k, min_cos=min_cos,
                                    progress=progress)  # fmt: skip
    seconds["knn"] = time.perf_counter() - clock
    clock = time.perf_counter()
    position = {int(x): i for i, x in enumerate(ids)}
    pi = np.asarray([position.get(int(x), -1) for x in a], dtype=np.int64)
    pj = np.asarray([position.get(int(x), -1) for x in b], dtype=np.int64)
    ok = (pi >= 0) & (pj >= 0)
    labels, stats = cluster_graph(vectors, pi[ok], pj[ok], sim[ok], linkage=linkage, cut=cut)
    seconds["cluster"] = time.perf_counter() - clock
    clock = time.perf_counter()
    method = f"{linkage}@{cut:g}"
    # a run killed while it writes leaves the mark, and the next run rebuilds (argkb.db.jobs)
    with jobs.running(driver, database, f"cluster:{kind}"):
        write_clusters(driver, database, kind, method, ids, labels)
        mark_corpora(driver, database, corpora)
    seconds["write"] = time.perf_counter() - clock
    return ClusterRun(kind, method, asdict(stats), int(ok.sum()), seconds,
                      reason="full run", knn=used)  # fmt: skip


def write_clusters(
    driver: neo4j.Driver,
    database: str | None,
    kind: Kind,
    method: str,
    ids: NDArray[np.int64],
    labels: NDArray[np.int64],
    *,
    batch: int = 2000,
) -> None:
    import numpy as np

    with driver.session(database=database) as session:
        session.run(cypher.load("cluster/drop_clusters"), {"kind": kind}).consume()
    order = np.argsort(labels, kind="stable")
    bounds = np.searchsorted(labels[order], np.arange(labels.max() + 2 if len(labels) else 1))
    rows = (
        {"cid": f"{kind}:{label}", "ids": ids[order[bounds[label] : bounds[label + 1]]].tolist()}
        for label in range(len(bounds) - 1)
    )
    query = "cluster/write_clusters"
    jobs = (
        (query, {"rows": chunk, "kind": kind, "method": method}) for chunk in chunks(rows, batch)
    )
    run_writes(driver, jobs, database=database)
    if kind == "premise" or _has_premise_clusters(driver, database):
        with driver.session(database=database) as session:
            session.run(cypher.load("cluster/premise_cluster_stats")).consume()


def pending_corpora(driver: neo4j.Driver, database: str | None = None) -> list[str]:
    """Complete corpora loaded (or reloaded) since a cluster run last covered them."""
    return list(cypher.read(driver, "cluster/pending_corpora", database=database)[0]["cids"])


def mark_corpora(driver: neo4j.Driver, database: str | None, cids: list[str]) -> None:
    """Record that the clusters (and their claim frequencies) now cover corpora ``cids``."""
    if cids:
        driver.execute_query(cypher.load("cluster/mark_corpora"), {"cids": cids},
                             database_=database)  # fmt: skip


def has_clusters(driver: neo4j.Driver, database: str | None = None) -> bool:
    """Whether both claim and premise clusters exist."""
    records, _, _ = driver.execute_query(cypher.load("cluster/has_clusters"), database_=database)
    return bool(records[0]["claims"] and records[0]["premises"])


def _has_premise_clusters(driver: neo4j.Driver, database: str | None) -> bool:
    records, _, _ = driver.execute_query(
        cypher.load("cluster/has_premise_clusters"), database_=database
    )
    return bool(records[0]["any"])


def same_as_exact(driver: neo4j.Driver, database: str | None) -> bool:
    """Whether SAME_AS neighbours are computed exactly: up to ``EXACT_UNITS`` premises (a full
    run and an incremental one decide alike, so they write the same edges)."""
    premises = cypher.read(driver, "cluster/premise_vectors_count", database=database)[0]["n"]
    return int(premises) <= knn.EXACT_UNITS


def link_same_as(
    driver: neo4j.Driver,
    database: str | None = None,
    *,
    threshold: float = DEFAULT_SAME_AS,
    k: int = 10,
    progress: Callable[[int], object] | None = None,
) -> int:
    """``(:Claim)-[:SAME_AS]->(:Premise)`` for each claim's ``k`` nearest premises within
    cosine ``threshold`` (exact up to :data:`argkb.cluster.knn.EXACT_UNITS` premises, else
    through the vector index: :func:`same_as_exact`)."""
    method = "embedding"
    claims = export_vectors(driver, "Claim", database=database)
    if same_as_exact(driver, database):
        premises = export_vectors(driver, "Premise", database=database)
        a, b, sim = knn.exact_pairs(*claims, k=k, min_cos=threshold, base=premises,
                                    progress=progress)  # fmt: skip
    else:
        a, b, sim = knn.index_pairs(driver, database, claims[0], "premise_embedding", k=k,
                                    min_cos=threshold, progress=progress)  # fmt: skip
    query = "cluster/same_as_write"
    rows = (
        {"a": x, "b": y, "score": s}
        for x, y, s in zip(a.tolist(), b.tolist(), sim.tolist(), strict=True)
    )
    writes = ((query, {"rows": chunk, "method": method}) for chunk in chunks(rows, 5000))
    with jobs.running(driver, database, "same_as"):  # interrupted: the next run writes all again
        with driver.session(database=database) as session:
            session.run(cypher.load("cluster/same_as_delete"), {"method": method}).consume()
        run_writes(driver, writes, database=database)
    return len(a)
