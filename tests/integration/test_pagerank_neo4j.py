"""PageRank through Neo4j: export, compute, write back; checked against networkx and GDS."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader
from argkb.rank.pagerank import argument_pagerank, build_transition, power_iteration
from argkb.rank.store import export_graph, run_pagerank

pytestmark = pytest.mark.neo4j
DEMO = Path(__file__).resolve().parents[2] / "examples" / "debates.json"


@pytest.fixture(scope="module")
def graph_db(db):
    init_schema(db)
    load_records(db, "argsme", [DEMO], reader("argsme")([DEMO]))
    return db


def _unit_edges_by_uid(driver) -> list[tuple[str, str]]:
    """conclusion -> premise edges, read independently of argkb.rank.store."""
    rows = driver.execute_query(
        "MATCH (c:Unit)<-[:CONCLUDES]-(a:Argument)<-[:PREMISE_OF]-(p:Unit) "
        "RETURN c.uid AS c, p.uid AS p"
    ).records
    return [(r["c"], r["p"]) for r in rows]


def _scores(driver) -> dict[str, float]:
    rows = driver.execute_query("MATCH (u:Unit) RETURN u.uid AS uid, u.pagerank AS s").records
    return {r["uid"]: r["s"] for r in rows}


def test_adapted_pagerank_written_back_matches_direct_computation(graph_db) -> None:
    run = run_pagerank(graph_db, tol=1e-12)
    assert run.units == len(_scores(graph_db)) and run.iterations > 1
    stored = _scores(graph_db)
    assert abs(sum(stored.values()) - 1.0) < 1e-9
    # recompute from an independent read of the graph: one argument per (conclusion, premises)
    rows = graph_db.execute_query(
        "MATCH (a:Argument)-[:CONCLUDES]->(c:Unit) "
        "RETURN c.uid AS c, [(p:Unit)-[:PREMISE_OF]->(a) | p.uid] AS ps"
    ).records
    uids = sorted(stored)
    index = {uid: i for i, uid in enumerate(uids)}
    conclusions = [index[r["c"]] for r in rows]
    indptr = np.cumsum([0] + [len(r["ps"]) for r in rows])
    premises = [index[p] for r in rows for p in r["ps"]]
    direct = argument_pagerank(len(uids), conclusions, indptr, premises, tol=1e-12)
    np.testing.assert_allclose([stored[u] for u in uids], direct.scores, rtol=0, atol=1e-10)


def test_argument_relevance_aggregates_premise_scores(graph_db) -> None:
    run_pagerank(graph_db)
    rows = graph_db.execute_query(
        "MATCH (p:Unit)-[:PREMISE_OF]->(a:Argument) "
        "RETURN a.aid AS aid, collect(p.pagerank) AS scores, a.relevance_min AS mn, "
        "a.relevance_avg AS av, a.relevance_max AS mx, a.relevance_sum AS sm"
    ).records
    assert rows
    for r in rows:
        s = r["scores"]
        assert r["mn"] == pytest.approx(min(s)) and r["mx"] == pytest.approx(max(s))
        assert r["sm"] == pytest.approx(sum(s)) and r["av"] == pytest.approx(sum(s) / len(s))


def test_classic_variant_agrees_with_networkx(graph_db) -> None:
    import networkx as nx

    run_pagerank(graph_db, variant="classic", tol=1e-13, max_iter=1000)
    stored = _scores(graph_db)
    g: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    g.add_nodes_from(stored)
    g.add_edges_from(_unit_edges_by_uid(graph_db))
    expected = nx.pagerank(g, alpha=0.85, tol=1e-14, max_iter=1000)
    for uid, value in expected.items():
        assert stored[uid] == pytest.approx(value, abs=1e-8)


def test_classic_variant_agrees_with_gds(graph_db) -> None:
    """GDS pageRank differs by definition: scores start at 1 - d, are not normalised, and mass
    of dangling nodes is not redistributed. So GDS's fixed point is n times ours with dangling
    mass dropped (y = (1-d) + d M y  vs  x = (1-d)/n + d M x)."""
    graph = export_graph(graph_db)
    n = len(graph.unit_ids)
    edges = _unit_edges_by_uid(graph_db)
    uid_rows = graph_db.execute_query("MATCH (u:Unit) RETURN id(u) AS id, u.uid AS uid").records
    uid_of = {r["id"]: r["uid"] for r in uid_rows}
    index = {uid_of[int(i)]: k for k, i in enumerate(graph.unit_ids)}
    transition = build_transition(n, [index[c] for c, _ in edges], [index[p] for _, p in edges])
    ours = power_iteration(transition, dangling="drop", tol=1e-14, max_iter=2000).scores

    graph_db.execute_query("CALL gds.graph.drop('argkb_test', false) YIELD graphName")
    graph_db.execute_query(
        "MATCH (u:Unit) OPTIONAL MATCH (u)<-[:CONCLUDES]-(:Argument)<-[:PREMISE_OF]-(p:Unit) "
        "RETURN gds.graph.project('argkb_test', u, p) AS g"
    )
    rows = graph_db.execute_query(
        "CALL gds.pageRank.stream('argkb_test', {dampingFactor: 0.85, maxIterations: 2000, "
        "tolerance: 1e-14}) YIELD nodeId, score "
        "RETURN gds.util.asNode(nodeId).uid AS uid, score"
    ).records
    graph_db.execute_query("CALL gds.graph.drop('argkb_test') YIELD graphName")
    assert len(rows) == n
    for r in rows:
        assert r["score"] / n == pytest.approx(ours[index[r["uid"]]], rel=1e-6, abs=1e-12)


def test_warm_start_converges_faster(graph_db) -> None:
    cold = run_pagerank(graph_db, tol=1e-12)
    warm = run_pagerank(graph_db, tol=1e-12, warm=True)
    assert warm.iterations < cold.iterations


def test_small_concurrent_write_batches_write_every_value(graph_db) -> None:
    # several batches in flight at once (threads over one driver) must write every row once
    from argkb.rank.aggregate import aggregate_all
    from argkb.rank.store import write_scores

    graph = export_graph(graph_db, previous=False, workers=2, page=7)
    assert graph.previous is None
    scores = np.arange(1, len(graph.unit_ids) + 1, dtype=np.float64)
    relevance = aggregate_all(scores, graph.premise_indptr, graph.premise_units)
    write_scores(graph_db, None, graph, scores, relevance, batch=3, workers=3)
    stored = graph_db.execute_query(
        "MATCH (u:Unit) RETURN id(u) AS id, u.pagerank AS s ORDER BY id"
    ).records
    assert [r["s"] for r in stored] == scores.tolist()
    args = graph_db.execute_query(
        "MATCH (a:Argument) WHERE id(a) IN $ids RETURN id(a) AS id, a.relevance_sum AS s",
        ids=graph.argument_ids.tolist(),
    ).records
    by_id = {r["id"]: r["s"] for r in args}
    assert [by_id[i] for i in graph.argument_ids.tolist()] == relevance["sum"].tolist()
    # the same graph as a sequential export with one-page reads
    again = export_graph(graph_db, workers=1)
    np.testing.assert_array_equal(again.unit_ids, graph.unit_ids)
    np.testing.assert_array_equal(again.premise_units, graph.premise_units)
    np.testing.assert_array_equal(again.conclusions, graph.conclusions)


@pytest.mark.parametrize("alpha", [0.0, 1.0, -0.1])
def test_alpha_outside_0_1_is_refused_and_the_stored_scores_stay(graph_db, alpha) -> None:
    """Issue 26: alpha 0 replaced the stored scores with one uniform value without a word."""
    from argkb.rank.pagerank import GraphInputError

    run_pagerank(graph_db)
    before = _scores(graph_db)
    assert len(set(before.values())) > 1
    with pytest.raises(GraphInputError, match="strictly between 0 and 1"):
        run_pagerank(graph_db, alpha=alpha)
    assert _scores(graph_db) == before
