"""Adapters from the harness's Ranker protocol to the query engine, for ``argkb eval --ranker``.

Every factory first brings the claim and premise clusters up to date (:func:`ensure_clusters`:
what ``argkb update`` would cluster, i.e. units with an embedding and no cluster, corpora loaded
since the last cluster run, an interrupted run) and places the premises whose stance the data
left unknown (:func:`ensure_stance`, as ``argkb stance`` would), then answers each benchmark
query with :class:`~argkb.query.engine.QueryEngine`: clusters of premise unit keys,
representative first. A query without a stance gets the pro and con lists merged by score.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import neo4j

    from argkb.cluster.store import ClusterRun
    from argkb.embed.model import Embedder
    from argkb.query.settings import QuerySettings, RankerName
    from argkb.ranking import Query, Ranking

logger = logging.getLogger(__name__)


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


# the stale counts of argkb.db.staleness that clustering brings to 0
CLUSTER_STALE = (
    "claims_without_cluster",
    "premises_without_cluster",
    "corpora_since_cluster",
    "cluster_runs_interrupted",
)


def ensure_clusters(driver: neo4j.Driver, database: str | None = None) -> list[ClusterRun]:
    """Cluster claims and premises where the clusters are stale, as ``argkb update`` does.

    Stale (:func:`argkb.db.staleness.stale_steps`): claims or premises with an embedding and no
    cluster (a corpus loaded and embedded since the last run), corpora loaded since the last run
    (their claim frequencies), or a cluster run interrupted while writing. Each kind is then
    updated as ``argkb cluster`` updates it (:func:`argkb.pipeline.cluster`), with the default
    cut and linkage: incrementally where clusters of that method exist, else rebuilt; so a
    corpus loaded into a
    database that another benchmark already clustered is scored clustered too. Returns the runs
    (none when nothing was stale). SAME_AS edges are not touched (queries do not read them).
    """
    from argkb.db.staleness import stale_steps
    from argkb.pipeline import cluster

    stale = {s.what: s.count for s in stale_steps(driver, database) if s.what in CLUSTER_STALE}
    if not any(stale.values()):
        return []
    logger.info("clustering for the evaluation: %s", stale)
    return cluster(driver, database, skip_same_as=True).runs


def ensure_stance(driver: neo4j.Driver, database: str | None = None) -> int:
    """Predict the stance of premise edges the data left unknown, as ``argkb stance`` does with
    the shipped model; returns how many edges it placed (0: none was unknown).

    Without it a premise of unknown stance is on neither side of an answer (the query engine
    shows only pro and con premises), so a benchmark whose data leaves stances open (SIGIR-19's
    "Not specified") would be scored on a graph prepared less than the documented workflow
    (``argkb update --with-stance``) prepares it."""
    from argkb.pipeline import stance

    run = stance(driver, database)  # returns at once, loading no model, when none is pending
    if run.written:
        logger.info("predicted %d unknown stances for the evaluation", run.written)
    return run.written


def _engine(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None,
    settings: QuerySettings,
) -> Any:  # fmt: skip
    from argkb.errors import ConfigError
    from argkb.query.engine import QueryEngine

    if embedder is None:
        raise ConfigError("the query engine needs an embedding model")
    ensure_clusters(driver, database)
    ensure_stance(driver, database)
    return QueryEngine(driver, embedder, database=database, settings=settings)


def engine_ranker(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None,
    settings: QuerySettings, name: str,
) -> EngineRanker:  # fmt: skip
    """A harness ranker named ``name`` that answers every query with ``settings`` (the engine
    of :func:`_engine`; the ranker the settings name). bench/ranker_variants.py builds its
    variants of the default with it."""
    return EngineRanker(_engine(driver, database, embedder, settings), settings.ranker, name)


def _ranker(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None, name: str,
    **settings: Any,
) -> EngineRanker:  # fmt: skip
    """A ranker named ``name`` answering with the query settings ``settings`` (the rest as
    :class:`~argkb.query.settings.QuerySettings` has them)."""
    from argkb.query.settings import QuerySettings

    return engine_ranker(driver, database, embedder, QuerySettings(**settings), name)


def default(driver: neo4j.Driver, database: str | None, embedder: Embedder | None) -> EngineRanker:
    """argkb's default query, the very settings object ``argkb query`` and ``argkb serve`` use
    (:data:`argkb.query.settings.DEFAULT`)."""
    from argkb.query.settings import DEFAULT

    return engine_ranker(driver, database, embedder, DEFAULT, "default")


def hybrid(driver: neo4j.Driver, database: str | None, embedder: Embedder | None) -> EngineRanker:
    """Claim route, BM25 and vector premise routes fused by reciprocal rank, one per cluster;
    every similar claim counts as aligned with the query (Dumani et al.). The default until
    2026-11-26; the ``hybrid`` rows of the results pages are this ranker."""
    return _ranker(driver, database, embedder, "hybrid", ranker="hybrid", alignment="always",
                   fusion="rrf")  # fmt: skip


def hybrid_aligned(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None
) -> EngineRanker:
    """The ``hybrid`` ranker (reciprocal rank fusion) with the stance-alignment model's decisions
    (a claim is aligned or opposed) instead of "always aligned"."""
    return _ranker(driver, database, embedder, "hybrid-aligned", ranker="hybrid",
                   alignment="model", fusion="rrf")  # fmt: skip


def hybrid_soft(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None
) -> EngineRanker:
    """The ``hybrid`` ranker (reciprocal rank fusion) weighing each claim's premise sides by the
    alignment probability."""
    return _ranker(driver, database, embedder, "hybrid-soft", ranker="hybrid", alignment="soft",
                   fusion="rrf")  # fmt: skip


def pfidf(driver: neo4j.Driver, database: str | None, embedder: Embedder | None) -> EngineRanker:
    """Dumani et al. 2020: P(pi|q) from pf * icf over claim and premise clusters."""
    return _ranker(driver, database, embedder, "pfidf", ranker="pfidf", alignment="always")


def pfidf_query_clusters(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None
) -> EngineRanker:
    """pfidf with premise clusters made at query time over the candidates (not `argkb cluster`)."""
    return _ranker(driver, database, embedder, "pfidf-query", ranker="pfidf", alignment="always",
                   premise_clusters="query")  # fmt: skip


def coreset(driver: neo4j.Driver, database: str | None, embedder: Embedder | None) -> EngineRanker:
    """Fromm et al. 2021: the biased coreset, relevance from the learned relevance filter."""
    return _ranker(driver, database, embedder, "coreset", ranker="coreset", alignment="always")


def coreset_cosine(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None
) -> EngineRanker:
    """The biased coreset with relevance = cosine to the query (the unlearned variant); alpha
    0.6 was best on ArgKP train."""
    return _ranker(driver, database, embedder, "coreset-cosine", ranker="coreset",
                   alignment="always", coreset_relevance="cosine", coreset_alpha=0.6)  # fmt: skip
