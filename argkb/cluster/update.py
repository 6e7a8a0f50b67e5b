"""``argkb cluster`` after a new corpus: update the clusters instead of rebuilding them.

:func:`update_clusters` chooses per kind (claim, premise):

- **incremental** when clusters of that kind exist and were all made by the asked method
  (``linkage@cut``): only units with an embedding and no cluster of that kind are read; each is
  placed into an existing cluster where the linkage criterion allows it at the same cut, the others
  are clustered among themselves (:mod:`argkb.cluster.incremental`), and old memberships stay as
  they are;
- **rebuild** (:func:`argkb.cluster.store.cluster_units`) when asked (``rebuild=True``), when no
  clusters exist yet, or when the stored clusters were made by another method.

Either way the claim frequencies (``cf_pro``, ``cf_con``) of the premise clusters the query engine
reads are computed again for every premise cluster an added unit or argument can change: the
clusters of the premises of every argument that has a unit clustered in this run or comes from a
corpus loaded since the last cluster run (``Corpus.clustered`` records which ones a run covered).

:func:`update_same_as` does the same for ``SAME_AS`` edges: it recomputes them for the new claims
and for the claims a new premise is near, which are the only claims whose nearest premises can
have changed.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from argkb.cluster.hierarchy import Linkage, cluster_graph
from argkb.cluster.incremental import assign_to_clusters
from argkb.cluster.knn import Method, exact_above, exact_pairs, index_pairs
from argkb.cluster.store import (
    _INDEX,
    _LABEL,
    DEFAULT_CUT,
    DEFAULT_K,
    DEFAULT_LINKAGE,
    DEFAULT_SAME_AS,
    ClusterRun,
    Kind,
    cluster_units,
    export_vectors,
    link_same_as,
    mark_corpora,
    pending_corpora,
    same_as_exact,
)
from argkb.db import cypher, jobs
from argkb.db.writes import chunks, run_writes

if TYPE_CHECKING:
    import neo4j
    import numpy as np
    from numpy.typing import NDArray


@dataclass(frozen=True)
class ClusterState:
    clusters: int
    methods: list[str]
    top: int  # highest number in the ids '<kind>:<n>' (-1 when none)
    interrupted: bool = False  # a run of this kind started writing and never finished


def cluster_state(driver: neo4j.Driver, database: str | None, kind: Kind) -> ClusterState:
    row = cypher.read(driver, "cluster/cluster_state", database=database, kind=kind)[0]
    top = row["top"]
    interrupted = f"cluster:{kind}" in jobs.unfinished(driver, database)
    return ClusterState(int(row["clusters"]), list(row["methods"]), -1 if top is None else top,
                        interrupted)  # fmt: skip


def pending_units(
    driver: neo4j.Driver, database: str | None, kind: Kind, *, page: int = 5000
) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
    """Internal ids and embeddings of the units of ``kind`` that have no cluster of that kind."""
    from argkb.cluster.store import paged_vectors

    query = cypher.render("cluster/pending_vectors", label=_LABEL[kind])
    return paged_vectors(driver, query, {"kind": kind}, database=database, page=page)


def choose_mode(state: ClusterState, method: str, *, rebuild: bool) -> tuple[str, str]:
    """("incremental" | "rebuild", why)."""
    if rebuild:
        return "rebuild", "asked (--rebuild)"
    if state.interrupted:
        return "rebuild", "the last run of this kind was interrupted"
    if state.clusters == 0:
        return "rebuild", "no clusters of this kind yet"
    if state.methods != [method]:
        return "rebuild", f"stored clusters made by {', '.join(state.methods)}, asked for {method}"
    return "incremental", "clusters exist; only units without a cluster are placed"


def update_clusters(
    driver: neo4j.Driver,
    database: str | None = None,
    *,
    kind: Kind,
    cut: float | None = None,
    linkage: Linkage | None = None,
    k: int = DEFAULT_K,
    rebuild: bool = False,
    knn_method: Method = "auto",
    progress: Callable[[int], object] | None = None,
) -> ClusterRun:
    """Update the clusters of ``kind`` incrementally where possible, else rebuild them
    (``knn_method``: how a rebuild finds neighbours; new units always ask the vector index)."""
    cut = DEFAULT_CUT[kind] if cut is None else cut
    linkage = linkage or DEFAULT_LINKAGE[kind]
    method = f"{linkage}@{cut:g}"
    mode, reason = choose_mode(cluster_state(driver, database, kind), method, rebuild=rebuild)
    if mode == "rebuild":
        run = cluster_units(driver, database, kind=kind, cut=cut, linkage=linkage, k=k,
                            knn_method=knn_method, progress=progress)  # fmt: skip
        run.reason = reason
        return run
    return _incremental(driver, database, kind=kind, cut=cut, linkage=linkage, k=k,
                        reason=reason, progress=progress)  # fmt: skip


def _incremental(
    driver: neo4j.Driver,
    database: str | None,
    *,
    kind: Kind,
    cut: float,
    linkage: Linkage,
    k: int,
    reason: str,
    progress: Callable[[int], object] | None,
) -> ClusterRun:
    import numpy as np

    method = f"{linkage}@{cut:g}"
    seconds: dict[str, float] = {}
    clock = time.perf_counter()
    corpora = pending_corpora(driver, database)
    ids, vectors = pending_units(driver, database, kind)
    seconds["export"] = time.perf_counter() - clock

    clock = time.perf_counter()
    a, b, sim, neighbour_cluster = _knn_with_clusters(
        driver, database, ids, kind, k=k, cut=cut, progress=progress
    )
    seconds["knn"] = time.perf_counter() - clock

    clock = time.perf_counter()
    position = {int(x): i for i, x in enumerate(ids)}
    candidates: list[list[str]] = [[] for _ in ids]
    for x, cid in zip(a.tolist(), neighbour_cluster, strict=True):
        if cid is not None:
            candidates[position[x]].append(cid)
    wanted = sorted({cid for options in candidates for cid in options})
    members = _member_vectors(driver, database, wanted)
    number = {cid: n for n, cid in enumerate(wanted)}
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    chosen = assign_to_clusters(
        unit,
        [[number[c] for c in options] for options in candidates],
        {number[c]: v for c, v in members.items()},
        linkage=linkage,
        cut=cut,
    )
    rest = np.flatnonzero(chosen < 0)
    rest_position = {int(ids[r]): n for n, r in enumerate(rest)}
    pi = np.asarray([rest_position.get(int(x), -1) for x in a], dtype=np.int64)
    pj = np.asarray([rest_position.get(int(y), -1) for y in b], dtype=np.int64)
    ok = (pi >= 0) & (pj >= 0)
    labels, stats = cluster_graph(vectors[rest] if len(rest) else np.zeros((0, 1)),
                                  pi[ok], pj[ok], sim[ok], linkage=linkage, cut=cut)  # fmt: skip
    seconds["cluster"] = time.perf_counter() - clock

    clock = time.perf_counter()
    joined: dict[str, list[int]] = defaultdict(list)
    for row in np.flatnonzero(chosen >= 0).tolist():
        joined[wanted[int(chosen[row])]].append(int(ids[row]))
    top = cluster_state(driver, database, kind).top
    fresh: dict[str, list[int]] = defaultdict(list)
    for row, label in zip(rest.tolist(), labels.tolist(), strict=True):
        fresh[f"{kind}:{top + 1 + label}"].append(int(ids[row]))
    with jobs.running(driver, database, f"cluster:{kind}"):  # interrupted: the next run rebuilds
        _write_memberships(driver, database, kind, method, joined, fresh)
        seconds["write"] = time.perf_counter() - clock

        clock = time.perf_counter()
        touched = refresh_premise_stats(driver, database, ids.tolist(), corpora)
        mark_corpora(driver, database, corpora)
    seconds["stats"] = time.perf_counter() - clock
    return ClusterRun(
        kind, method, asdict(stats), int(ok.sum()), seconds, mode="incremental", reason=reason,
        new_units=len(ids), joined=sum(len(v) for v in joined.values()), new_clusters=len(fresh),
        touched=touched,
    )  # fmt: skip


def _knn_with_clusters(
    driver: neo4j.Driver,
    database: str | None,
    ids: NDArray[np.int64],
    kind: Kind,
    *,
    k: int,
    cut: float,
    batch: int = 500,
    progress: Callable[[int], object] | None = None,
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64], list[str | None]]:
    """(a, b, cosine, b's cluster or None) for each new unit's ``k`` nearest neighbours within
    ``cut``."""
    import numpy as np
    from neo4j import RoutingControl

    query = cypher.load("cluster/knn_clusters")
    a: list[int] = []
    b: list[int] = []
    score: list[float] = []
    cluster: list[str | None] = []
    for start in range(0, len(ids), batch):
        chunk = [int(x) for x in ids[start : start + batch]]
        records, _, _ = driver.execute_query(
            query, {"ids": chunk, "index": _INDEX[kind], "k": k + 1, "kind": kind,
                    "min_score": (2.0 - cut) / 2.0},
            database_=database, routing_=RoutingControl.READ,
        )  # fmt: skip
        for r in records:
            a.append(r["a"])
            b.append(r["b"])
            score.append(cypher.cosine(r["score"]))
            cluster.append(r["cid"])
        if progress:
            progress(len(chunk))
    return (np.asarray(a, np.int64), np.asarray(b, np.int64), np.asarray(score, np.float64),
            cluster)  # fmt: skip


def _member_vectors(
    driver: neo4j.Driver, database: str | None, cids: list[str], *, batch: int = 500
) -> dict[str, NDArray[np.float64]]:
    """L2-normalised member embeddings per cluster id."""
    import numpy as np

    out: dict[str, NDArray[np.float64]] = {}
    for chunk in chunks(cids, batch):
        for r in cypher.read(driver, "cluster/member_vectors", database=database, cids=chunk):
            v = np.asarray(r["vectors"], dtype=np.float64)
            out[r["cid"]] = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    return out


def _write_memberships(
    driver: neo4j.Driver,
    database: str | None,
    kind: Kind,
    method: str,
    joined: dict[str, list[int]],
    fresh: dict[str, list[int]],
    *,
    batch: int = 2000,
) -> None:
    """New members of existing clusters, and new clusters (ids ``<kind>:<n>`` above the old)."""
    joins = ({"cid": cid, "ids": members} for cid, members in joined.items())
    news = ({"cid": cid, "ids": members} for cid, members in fresh.items())
    jobs: list[tuple[str, dict[str, Any]]] = [
        ("cluster/assign_clusters", {"rows": rows}) for rows in chunks(joins, batch)
    ]
    jobs += [
        ("cluster/write_clusters", {"rows": rows, "kind": kind, "method": method})
        for rows in chunks(news, batch)
    ]
    run_writes(driver, jobs, database=database)


def refresh_premise_stats(
    driver: neo4j.Driver,
    database: str | None,
    unit_ids: list[int],
    corpora: list[str],
    *,
    batch: int = 2000,
) -> int:
    """Compute ``cf_pro`` / ``cf_con`` again for the premise clusters that the units clustered
    now (``unit_ids``) or the arguments of ``corpora`` can change; returns how many."""
    if not unit_ids and not corpora:
        return 0
    cids: set[str] = set()
    # the corpora's arguments with the first part of the units, then the other parts alone
    parts = list(chunks(unit_ids, 20_000)) or [[]]
    for n, part in enumerate(parts):
        row = cypher.read(driver, "cluster/touched_premise_clusters", database=database,
                          ids=part, corpora=corpora if n == 0 else [])[0]  # fmt: skip
        cids.update(row["cids"])
    unique = sorted(cids)
    jobs = (("cluster/premise_cluster_stats_for", {"cids": part}) for part in chunks(unique, batch))
    run_writes(driver, jobs, database=database)
    return len(unique)


def _claims_above(
    driver: neo4j.Driver, database: str | None, premises: list[int], *, min_cos: float, k: int
) -> set[int]:
    """Every claim whose vector-index cosine with one of ``premises`` is at least ``min_cos``.

    Not a premise's ``k`` nearest claims: a premise can be among a claim's nearest premises
    while that claim is not among the premise's nearest claims (nearness is not symmetric), so
    a premise whose ``k`` answers all pass ``min_cos`` is asked again with ``4 k``."""
    import numpy as np

    found: set[int] = set()
    ask = np.asarray(premises, np.int64)
    while len(ask):
        a, b, _ = index_pairs(driver, database, ask, "claim_embedding", k=k, min_cos=min_cos)
        found.update(b.tolist())
        ids, counts = np.unique(a, return_counts=True)
        # index_pairs asks for k + 1 (the unit itself may be a claim too): k answers fill it
        ask = ids[counts >= k]
        k *= 4
    return found


def update_same_as(
    driver: neo4j.Driver,
    database: str | None = None,
    *,
    claims: list[int],
    premises: list[int],
    threshold: float = DEFAULT_SAME_AS,
    k: int = 10,
    progress: Callable[[int], object] | None = None,
) -> int:
    """``SAME_AS`` edges again for new ``claims`` and for the claims near new ``premises``
    (internal ids), as :func:`argkb.cluster.store.link_same_as` would write them; returns how
    many edges were written.

    A claim's ``k`` nearest premises above ``threshold`` change only when a new premise enters
    them, and such a premise is above ``threshold`` with that claim: every claim above it with a
    new premise is written again. Exactly where the full run is exact
    (:func:`argkb.cluster.store.same_as_exact`); otherwise through the vector index
    (:func:`_claims_above`), up to its recall, as in a full run.

    If the last SAME_AS run was interrupted (:mod:`argkb.db.jobs`), the edges it left are a
    partial set, so every claim's edges are written again (:func:`link_same_as`)."""
    import numpy as np

    if "same_as" in jobs.unfinished(driver, database):
        return link_same_as(driver, database, threshold=threshold, k=k, progress=progress)
    method = "embedding"
    if same_as_exact(driver, database):
        claim_ids, claim_vectors = export_vectors(driver, "Claim", database=database)
        every = export_vectors(driver, "Premise", database=database)
        new = np.isin(every[0], np.asarray(premises, np.int64))
        near = exact_above(every[1][new], (claim_ids, claim_vectors), min_cos=threshold)
        ask = np.isin(claim_ids, np.asarray(sorted(set(claims) | near), np.int64))
        affected = claim_ids[ask].tolist()
        a, b, sim = exact_pairs(claim_ids[ask], claim_vectors[ask], k=k, min_cos=threshold,
                                base=every, progress=progress)  # fmt: skip
    else:
        near = _claims_above(driver, database, premises, min_cos=threshold, k=4 * (k + 1))
        affected = sorted(set(claims) | near)
        a, b, sim = index_pairs(driver, database, np.asarray(affected, np.int64),
                                "premise_embedding", k=k, min_cos=threshold,
                                progress=progress)  # fmt: skip
    if not affected:
        return 0
    deletes = (
        ("cluster/same_as_delete_for", {"ids": part, "method": method})
        for part in chunks(affected, 5000)
    )
    rows = (
        {"a": x, "b": y, "score": s}
        for x, y, s in zip(a.tolist(), b.tolist(), sim.tolist(), strict=True)
    )
    writes = (("cluster/same_as_write", {"rows": c, "method": method}) for c in chunks(rows, 5000))
    with jobs.running(driver, database, "same_as"):
        run_writes(driver, deletes, database=database)
        run_writes(driver, writes, database=database)
    return len(a)
