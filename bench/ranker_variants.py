"""Variants of argkb's default query, as harness rankers, to score a candidate change of the
default on every benchmark next to the default itself and the baselines of the same run.

    argkb eval sigir19 --data ../shared/data/webis-sigir19-dev \\
        --ranker default --ranker bench.ranker_variants:clusters_whole

Each factory is ``argkb.query.settings.DEFAULT`` with one or two settings changed, so a row
differs from ``default`` by exactly what its name says. Run from the repository root with the
repository on ``PYTHONPATH`` (the ``argkb`` script does not put the working directory there).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import neo4j

    from argkb.embed.model import Embedder
    from argkb.eval.adapters import EngineRanker


def _variant(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None, name: str,
    **changes: Any,
) -> EngineRanker:  # fmt: skip
    from argkb.eval.adapters import engine_ranker
    from argkb.query.settings import DEFAULT

    return engine_ranker(driver, database, embedder, replace(DEFAULT, **changes), name)


def clusters_whole(driver: Any, database: Any, embedder: Any) -> EngineRanker:
    """The default before 2026-11-26: every premise shown inside its premise cluster."""
    return _variant(driver, database, embedder, "clusters-whole", cluster_max_words=None)


def long_alone_50(driver: Any, database: Any, embedder: Any) -> EngineRanker:
    """The default with premises over 50 words shown on their own (the default: 100)."""
    return _variant(driver, database, embedder, "long-alone-50", cluster_max_words=50)


def long_alone_200(driver: Any, database: Any, embedder: Any) -> EngineRanker:
    """The default with premises over 200 words shown on their own (the default: 100)."""
    return _variant(driver, database, embedder, "long-alone-200", cluster_max_words=200)


def with_prior(driver: Any, database: Any, embedder: Any) -> EngineRanker:
    """The default with the argumentativeness route at weight .5."""
    return _variant(driver, database, embedder, "with-prior", weight_argument=0.5)


def claims_1(driver: Any, database: Any, embedder: Any) -> EngineRanker:
    """The default with the claim route weighted 1 (the default: 3)."""
    return _variant(driver, database, embedder, "claims-1", weight_claims=1.0)


def bm25_2(driver: Any, database: Any, embedder: Any) -> EngineRanker:
    """The default with BM25 over premises weighted 2 (the default: 1)."""
    return _variant(driver, database, embedder, "bm25-2", weight_bm25=2.0)


def cosine_1(driver: Any, database: Any, embedder: Any) -> EngineRanker:
    """The default with vector search over premises weighted 1 (the default: .5)."""
    return _variant(driver, database, embedder, "cosine-1", weight_cosine=1.0)


def rrf(driver: Any, database: Any, embedder: Any) -> EngineRanker:
    """The default with reciprocal rank fusion of the routes (the default before the linear
    fusion, 2026-11-26 evening)."""
    return _variant(driver, database, embedder, "rrf", fusion="rrf")


def cross_alignment(driver: Any, database: Any, embedder: Any) -> EngineRanker:
    """The default with ``--alignment cross``: the stance cross-encoder decides for the 12 most
    credited claims that agree with the query in explicit negation, the model for the rest."""
    return _variant(driver, database, embedder, "cross-alignment", alignment="cross")


def cross_every_claim(driver: Any, database: Any, embedder: Any) -> EngineRanker:
    """``--alignment cross`` with the cross-encoder deciding for every claim the claim route
    credits (``cross_claims`` None; 12 when not told)."""
    return _variant(driver, database, embedder, "cross-every-claim", alignment="cross",
                    cross_claims=None)  # fmt: skip


def cross_8(driver: Any, database: Any, embedder: Any) -> EngineRanker:
    """``--alignment cross`` with the cross-encoder deciding for the 8 most credited claims."""
    return _variant(driver, database, embedder, "cross-8", alignment="cross", cross_claims=8)


def cross_claim_1(driver: Any, database: Any, embedder: Any) -> EngineRanker:
    """``--alignment cross`` with the linear fusion's claim weight 1 (the default: 1.5), what
    bench/linear_study.py --grid prior fits on all five benchmarks' pools recorded with it."""
    return _variant(driver, database, embedder, "cross-claim-1", alignment="cross",
                    linear_claim=1.0)  # fmt: skip
