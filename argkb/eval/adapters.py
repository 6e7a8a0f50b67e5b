"""Adapters from the harness's Ranker protocol to the query engine, for ``argkb eval --ranker``.

Every factory makes sure claim and premise clusters exist (running ``argkb cluster``'s library
call once if the database has none), then answer each benchmark query with
:class:`~argkb.retrieve.engine.QueryEngine`: clusters of premise unit keys, representative first.
A query without a stance gets the pro and con lists merged by score.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import neo4j

    from argkb.embed.model import Embedder
    from argkb.ranking import Query, Ranking
    from argkb.retrieve.engine import RankerName, Settings


class EngineRanker:
    """``rank(query, k)`` through the query engine with one ranker (hybrid, pfidf or coreset)."""

    def __init__(self, engine: Any, ranker: RankerName, name: str | None = None) -> None:
        self.engine = engine
        self.ranker: RankerName = ranker
        self.name = name or ranker

    def rank(self, query: Query, k: int) -> Ranking:
        from argkb.ranking import Ranking

        result = self.engine.query(query.text, k=k, ranker=self.ranker,
                                   stance=query.stance or "both",
                                   collection=query.collection)  # fmt: skip
        clusters = sorted(result.pro + result.con, key=lambda c: -c.score)[:k]
        groups = []
        for cluster in clusters:
            rep = cluster.representative.key
            groups.append([rep, *(m.key for m in cluster.members if m.key != rep)])
        return Ranking(groups, [c.score for c in clusters])


def _engine(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None,
    settings: Settings | None = None,
) -> Any:  # fmt: skip
    from argkb.cluster.store import cluster_units, has_clusters
    from argkb.errors import ConfigError
    from argkb.retrieve.engine import QueryEngine

    if embedder is None:
        raise ConfigError("the query engine needs an embedding model")
    if not has_clusters(driver, database):
        cluster_units(driver, database, kind="claim")
        cluster_units(driver, database, kind="premise")
    return QueryEngine(driver, embedder, database=database, settings=settings)


def hybrid(driver: neo4j.Driver, database: str | None, embedder: Embedder | None) -> EngineRanker:
    """Claim route, BM25 and vector premise routes fused by reciprocal rank, one per cluster."""
    return EngineRanker(_engine(driver, database, embedder), "hybrid")


def _hybrid_with_model(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None, *, hard: bool,
    name: str,
) -> EngineRanker:  # fmt: skip
    from argkb.retrieve.engine import model_alignment

    engine = _engine(driver, database, embedder)
    engine.alignment = model_alignment(engine.embedder, hard=hard)
    return EngineRanker(engine, "hybrid", name)


def hybrid_aligned(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None
) -> EngineRanker:
    """``argkb query``'s default: the hybrid ranker with the stance-alignment model's decisions
    (a claim is aligned or opposed) instead of "always aligned"."""
    return _hybrid_with_model(driver, database, embedder, hard=True, name="hybrid-aligned")


def hybrid_soft(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None
) -> EngineRanker:
    """The hybrid ranker weighing each claim's premise sides by the alignment probability."""
    return _hybrid_with_model(driver, database, embedder, hard=False, name="hybrid-soft")


def pfidf(driver: neo4j.Driver, database: str | None, embedder: Embedder | None) -> EngineRanker:
    """Dumani et al. 2020: P(pi|q) from pf * icf over claim and premise clusters."""
    return EngineRanker(_engine(driver, database, embedder), "pfidf")


def pfidf_query_clusters(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None
) -> EngineRanker:
    """pfidf with premise clusters made at query time over the candidates (not `argkb cluster`)."""
    from argkb.retrieve.engine import Settings

    settings = Settings(premise_clusters="query")
    return EngineRanker(_engine(driver, database, embedder, settings), "pfidf", "pfidf-query")


def coreset(driver: neo4j.Driver, database: str | None, embedder: Embedder | None) -> EngineRanker:
    """Fromm et al. 2021: the biased coreset, relevance from the learned relevance filter."""
    return EngineRanker(_engine(driver, database, embedder), "coreset")


def coreset_cosine(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None
) -> EngineRanker:
    """The biased coreset with relevance = cosine to the query (the unlearned variant)."""
    from argkb.retrieve.engine import Settings

    settings = Settings(coreset_relevance="cosine", coreset_alpha=0.6)  # best on train
    return EngineRanker(_engine(driver, database, embedder, settings), "coreset", "coreset-cosine")
