"""`argkb query` end to end on the demo corpus: load -> embed -> cluster -> pagerank -> query.

The tests share one loaded graph and only read it; each builds the engine it needs, so any
order, or any one test alone, gives the same results. The empty graph is in test_query_empty.py.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import numpy as np
import pytest
from click.testing import CliRunner
from graphs import demo_graph

from argkb.cli import main

if TYPE_CHECKING:
    from argkb.query.settings import CoresetRelevance

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]


@pytest.fixture(scope="module")
def embedder():
    from argkb.embed.model import Embedder

    return Embedder()


@pytest.fixture(scope="module")
def demo_db(db, embedder):
    return demo_graph(db, embedder, same_as=True)


@pytest.fixture(scope="module")
def engine(demo_db, embedder):
    from argkb.query import QueryEngine, QuerySettings

    return QueryEngine(demo_db, embedder, settings=QuerySettings(alignment="always"))


@pytest.mark.parametrize("ranker", ["pfidf", "coreset"])
def test_distinct_pro_and_con_clusters(engine, ranker: str) -> None:
    result = engine.query("We should abandon fossil fuels", k=5, ranker=ranker)
    assert result.message is None
    assert result.claims[0]["text"] == "We should abandon fossil fuels"
    assert 0 < len(result.pro) <= 5 and 0 < len(result.con) <= 5
    for clusters in (result.pro, result.con):
        keys = [m.key for c in clusters for m in c.members]
        assert len(keys) == len(set(keys)), "a premise appears in two clusters"
        scores = [c.score for c in clusters]
        assert scores == sorted(scores, reverse=True)
        for cluster in clusters:
            assert cluster.representative.key in {m.key for m in cluster.members}
    # the demo corpus states the cost argument in several words; pfidf merges them
    if ranker == "pfidf":
        assert any(c.size >= 2 for c in result.pro)


def test_stance_filter_and_representatives(demo_db, embedder, engine) -> None:
    from argkb.query import QueryEngine, QuerySettings

    only_pro = engine.query(
        "School uniforms should be mandatory", k=3, ranker="pfidf", stance="pro"
    )
    assert only_pro.pro and not only_pro.con
    longest = only_pro.pro[0]
    assert len(longest.representative.text) == max(len(m.text) for m in longest.members)
    by_pagerank = QueryEngine(
        demo_db, embedder, settings=QuerySettings(alignment="always", representative="pagerank")
    )
    by_rank = by_pagerank.query(
        "School uniforms should be mandatory", k=3, ranker="pfidf", stance="pro"
    ).pro[0]
    ranks = [m.pagerank for m in by_rank.members if m.pagerank is not None]
    assert ranks and by_rank.representative.pagerank == max(ranks)


@pytest.mark.parametrize("relevance", ["learned", "cosine", "pfidf"])
def test_coreset_relevance_scorers(demo_db, embedder, relevance: CoresetRelevance) -> None:
    from argkb.query import QueryEngine, QuerySettings

    engine = QueryEngine(
        demo_db, embedder, settings=QuerySettings(alignment="always", coreset_relevance=relevance)
    )
    pools = engine.coreset_pools("We should abandon fossil fuels", "pro")
    pool = pools["pro"]
    from argkb.query.rankers.coreset import CoresetRanker

    coreset = engine.rankers["coreset"]
    assert isinstance(coreset, CoresetRanker)
    scores = coreset.relevance(engine.reader, pool)
    assert scores.shape == (len(pool.premises),) and np.isfinite(scores).all()
    if relevance == "learned":  # probabilities, highest for premises of the query's own claim
        assert ((scores > 0) & (scores < 1)).all()
        assert pool.claim_mass[scores.argmax()] == pool.claim_mass.max()
    result = engine.query("We should abandon fossil fuels", k=3, ranker="coreset", stance="pro",
                          explain=True)  # fmt: skip
    assert result.pro and not result.con and result.candidates >= len(result.pro)
    # --explain says why each pick was taken, with the scorer's own relevance
    gains = []
    for cluster in result.pro:
        assert cluster.explain is not None
        why = cluster.explain["coreset"]
        assert why["relevance_by"] == relevance and why["members"] == cluster.size
        assert why["pool"] == len(pool.premises)
        index = pool.keys.index(cluster.representative.key)
        assert why["relevance"] == pytest.approx(scores[index])
        gains.append(why["gain"])
    assert gains == [c.score for c in result.pro]


def test_premise_clusters_at_query_time(demo_db, embedder, engine) -> None:
    from argkb.query import QueryEngine, QuerySettings

    now = QueryEngine(
        demo_db, embedder, settings=QuerySettings(alignment="always", premise_clusters="query")
    )
    result = now.query("We should abandon fossil fuels", k=5, ranker="pfidf", explain=True)
    offline = engine.query("We should abandon fossil fuels", k=5, ranker="pfidf", explain=True)
    assert result.pro and result.con
    assert all(c.explain and c.explain["cluster"].startswith("q:") for c in result.pro + result.con)
    assert all(
        c.explain and not c.explain["cluster"].startswith("q:") for c in offline.pro + offline.con
    )
    for clusters in (result.pro, result.con):
        keys = [m.key for c in clusters for m in c.members]
        assert len(keys) == len(set(keys)), "a premise appears in two clusters"
    # the cost argument said in several words forms one cluster either way
    assert any(c.size >= 2 for c in result.pro)


def test_explain_gives_the_numbers(engine) -> None:
    result = engine.query(
        "Social media does more harm than good", k=3, ranker="pfidf", explain=True
    )
    detail = result.pro[0].explain
    assert detail["claims"] and {"p_claim", "pf", "icf"} <= set(detail["claims"][0])
    assert detail["claims"][0]["pf"] >= 1


def test_clear_answers_instead_of_tracebacks(engine) -> None:
    assert "empty" in engine.query("   ").message
    # pfidf answers only from similar claims; the hybrid also searches premises directly, so it
    # answers an unrelated query with the nearest premises it has (tests/.../test_query_hybrid)
    unrelated = engine.query("Der Quantencomputer rechnet mit Qubits im Labor", ranker="pfidf")
    assert unrelated.message and "No claim" in unrelated.message


def test_cli_json_has_documented_fields(demo_db, neo4j_uri: str) -> None:
    result = CliRunner().invoke(
        main,
        ["query", "Nuclear energy should be expanded", "--k", "3", "--json", "--explain"],
        env={"NEO4J_URI": neo4j_uri},
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert set(payload) >= {
        "query", "ranker", "claims", "pro", "con", "message", "seconds", "candidates"
    }  # fmt: skip
    first = payload["pro"][0]
    assert set(first) >= {"rank", "stance", "score", "representative", "size", "members"}
    assert set(first["representative"]) >= {"key", "text", "pagerank", "arguments"}


def test_engine_as_harness_ranker(engine) -> None:
    from argkb.eval.adapters import EngineRanker
    from argkb.ranking import Query, Ranking

    ranking = EngineRanker(engine, "pfidf").rank(Query("q1", "We should abandon fossil fuels"), 6)
    assert isinstance(ranking, Ranking) and 0 < len(ranking.clusters) <= 6
    pro = EngineRanker(engine, "pfidf").rank(
        Query("q2", "We should abandon fossil fuels", stance="pro"), 50
    )
    result = engine.query("We should abandon fossil fuels", k=50, ranker="pfidf", stance="pro")
    assert [c[0] for c in pro.clusters] == [c.representative.key for c in result.pro]


def test_claims_read_per_cluster_are_the_nearest_to_the_query(demo_db, embedder) -> None:
    """``cluster_claims`` caps the claims read of a retrieved claim cluster: the retrieved claim,
    then the cluster's other claims nearest the query; 0 reads them all."""
    from argkb.query import QueryEngine, QuerySettings

    query = "We should abandon fossil fuels"
    vector = embedder.embed([query], use_cache=False)[0]
    every = QueryEngine(
        demo_db, embedder, settings=QuerySettings(alignment="always", cluster_claims=0)
    )
    claims = every.reader.similar_claims(query, vector)
    rows = {r["claim"]: r for r in every.reader.cluster_rows(claims, vector)}
    sizes = {
        r["cluster"]: r["n"]
        for r in demo_db.execute_query(
            "MATCH (m:Claim)-[:IN_CLUSTER]->(g:ClaimCluster) RETURN g.cid AS cluster, count(m) AS n"
        ).records
    }
    big = [c for c, r in rows.items() if r["cluster"] and sizes[r["cluster"]] >= 3]
    assert big, "the demo query should retrieve a claim of a cluster of three or more claims"
    for claim in big:
        assert len(rows[claim]["members"]) == sizes[rows[claim]["cluster"]]
    for cap in (1, 2):
        capped = QueryEngine(
            demo_db, embedder, settings=QuerySettings(alignment="always", cluster_claims=cap)
        )
        for row in capped.reader.cluster_rows(claims, vector):
            members = row["members"]
            assert members[0] == row["claim"] and len(members) <= cap
            if row["claim"] in big and cap == 2:  # the other one is the nearest of the rest
                rest = [m for m in rows[row["claim"]]["members"] if m != row["claim"]]
                near = every.reader.vectors(rest) @ vector
                assert members[1] == rest[int(near.argmax())]
    # the default cap reads every claim of the demo's clusters, so it answers as "all" does
    default = QueryEngine(demo_db, embedder, settings=QuerySettings(alignment="always"))
    assert max(sizes.values()) <= default.settings.cluster_claims
    for ranker in ("hybrid", "pfidf"):
        a = default.query(query, k=5, ranker=ranker)
        b = every.query(query, k=5, ranker=ranker)
        assert [(c.stance, c.representative.key, c.score) for c in a.pro + a.con] == [
            (c.stance, c.representative.key, c.score) for c in b.pro + b.con
        ]
    one = QueryEngine(
        demo_db, embedder, settings=QuerySettings(alignment="always", cluster_claims=1)
    )
    assert (
        one.query(query, k=5, ranker="pfidf").candidates
        < every.query(query, k=5, ranker="pfidf").candidates
    )
