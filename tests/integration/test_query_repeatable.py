"""Answers do not depend on the internal ids a load happened to give the nodes.

Neo4j reuses the ids of deleted nodes, so the same corpus loaded into a cleared database gets
other ids, and the server returns candidate edges in another order. Every
tie a ranker breaks must be broken by something stable (unit keys), or evaluation runs on a
cleared database are not repeatable (docs/evaluation.md). Real Neo4j; the demo corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
DEMO = Path(__file__).resolve().parents[2] / "examples" / "debates.json"
QUERIES = ["We should abandon fossil fuels", "fossil fuels", "Nuclear energy",
           "We should not abandon fossil fuels"]  # fmt: skip


def _partitions(db) -> dict[str, list[list[str]]]:
    """Every cluster of each kind as the sorted keys of its members."""
    records = db.execute_query(
        "MATCH (c:Cluster)<-[:IN_CLUSTER]-(u:Unit) "
        "RETURN c.kind AS kind, c.cid AS cid, collect(u.uid) AS keys").records  # fmt: skip
    out: dict[str, list[list[str]]] = {}
    for r in records:
        out.setdefault(r["kind"], []).append(sorted(r["keys"]))
    return {kind: sorted(groups) for kind, groups in out.items()}


def _answers(db, embedder) -> dict[str, list[tuple[str, str, float, list[str]]]]:
    from argkb.query import QueryEngine
    from argkb.query.alignment import model_alignment
    from argkb.query.settings import RankerName

    engine = QueryEngine(db, embedder, alignment=model_alignment(embedder))
    out = {}
    rankers: tuple[RankerName, ...] = ("hybrid", "pfidf", "coreset")
    for ranker in rankers:
        for query in QUERIES:
            result = engine.query(query, k=20, ranker=ranker)
            out[f"{ranker}: {query}"] = [
                (c.stance, c.representative.key, c.score, [m.key for m in c.members])
                for c in result.pro + result.con
            ]
    return out


def _build(db, embedder, path: Path) -> None:
    from argkb.cluster.store import cluster_units
    from argkb.embed.store import embed_units

    init_schema(db)
    load_records(db, "argsme", [path], reader("argsme")([path]))
    embed_units(db, embedder)
    cluster_units(db, kind="claim")
    cluster_units(db, kind="premise")


def test_a_reload_with_other_ids_gives_the_same_answers(db) -> None:
    from argkb.db.clear import clear_database
    from argkb.embed.model import Embedder

    embedder = Embedder()
    _build(db, embedder, DEMO)
    first = _answers(db, embedder)
    first_partitions = _partitions(db)
    assert any(first.values())
    ids_before = {r["key"]: r["id"] for r in db.execute_query(
        "MATCH (u:Unit) RETURN u.uid AS key, elementId(u) AS id").records}  # fmt: skip

    moved = 0
    for attempt in range(1, 4):
        # filler nodes take freed ids first, so the units of the reload get other ids; Neo4j
        # frees ids lazily, so a reload may get the same ids back: then try again
        clear_database(db)
        db.execute_query("UNWIND range(1, $n) AS n CREATE (:Filler {n: n})", n=37 * attempt)
        _build(db, embedder, DEMO)
        ids_after = {r["key"]: r["id"] for r in db.execute_query(
            "MATCH (u:Unit) RETURN u.uid AS key, elementId(u) AS id").records}  # fmt: skip
        assert ids_after.keys() == ids_before.keys()
        moved = sum(ids_after[k] != ids_before[k] for k in ids_before)
        if moved > len(ids_before) // 2:
            break
    assert moved > len(ids_before) // 2, "the reloads kept most units' ids"

    second = _answers(db, embedder)
    assert _partitions(db) == first_partitions
    for name in first:
        # the same clusters, representatives and members in the same order, and the same scores
        # up to float rounding (sums over edges come in another order). Until 2026-11-27 the
        # scores differed by up to 2e-4 here: an unclustered claim was named like the stored
        # claim cluster of its id's number (tests/unit/test_candidate_clusters.py)
        assert [(c[0], c[1], c[3]) for c in second[name]] == [
            (c[0], c[1], c[3]) for c in first[name]
        ], name
        assert [c[2] for c in second[name]] == pytest.approx([c[2] for c in first[name]],
                                                             rel=1e-9), name  # fmt: skip


def test_the_order_the_server_answers_in_does_not_matter(db, monkeypatch) -> None:
    """The candidate edges read back in reverse order (as another load's ids would order
    them) give the same answers: ties are broken by unit keys, not by position."""
    from argkb.db import cypher
    from argkb.embed.model import Embedder

    embedder = Embedder()
    if not db.execute_query("MATCH (u:Unit) RETURN count(u) AS n").records[0]["n"]:
        _build(db, embedder, DEMO)
    first = _answers(db, embedder)
    read_columns = cypher.read_columns

    def reversed_edges(driver, name, **params):
        columns = read_columns(driver, name, **params)
        if name in ("query/premise_edges", "query/premises_of_claims"):
            return {column: values[::-1] for column, values in columns.items()}
        return columns

    monkeypatch.setattr(cypher, "read_columns", reversed_edges)
    second = _answers(db, embedder)
    for name in first:
        assert [(c[0], c[1], c[3]) for c in second[name]] == [
            (c[0], c[1], c[3]) for c in first[name]
        ], name
