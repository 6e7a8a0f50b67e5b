"""Baseline rankers, run in the same command as the rankers they are compared with.

All of them return singleton clusters (no deduplication, no clustering) of premise ``Unit.uid`` s
and honour :class:`~argkb.ranking.Query` ``collection`` (a ``Source.sid`` prefix; the candidate
premises are those of arguments ``-[:FROM]->`` a matching source) and, when stance-aware,
``stance``: a premise is kept only if it is the premise of an argument with the query's stance
(``PREMISE_OF.stance``). That stance is relative to the argument's own conclusion, which for the
judged documents of ArgKP is the query's topic; the baselines do not align stances across different
conclusions (the query engine does). The ``-nostance`` variants ignore the stance.

``bm25``
    Lucene BM25 (k1 = 1.2, b = 0.75, Neo4j's default analyzer) through the full-text index
    ``premise_text`` with ``db.index.fulltext.queryNodes``; the query text is escaped
    (:func:`argkb.retrieve.lucene.lucene_query`) so that it is a bag of terms, never Lucene syntax.
``cosine``
    Exact cosine similarity, in numpy, between the query's embedding and the stored embedding of
    every candidate premise (``Unit.embedding``, default model all-MiniLM-L6-v2); a candidate whose
    vector is missing or from another model is embedded on the fly (cached by text hash). Exact
    rather than the HNSW index: deterministic, and the candidate sets are small. A query without
    a collection falls back to the vector index ``premise_embedding``
    (``db.index.vector.queryNodes``).
``random``
    A seeded shuffle of the candidate premises, one ranker per seed (0..9), scores averaged.
``random-claim``
    A seeded shuffle of the premises of the arguments that conclude the query claim itself (the
    unit whose uid is the key of the query text; the whole collection if there is none): the score
    of a ranker that finds the query's claim exactly and orders its premises at random, the floor
    for claim-based rankers such as the query engine.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from argkb.db import cypher
from argkb.ranking import Query, Ranking, Stance
from argkb.retrieve.lucene import lucene_query

if TYPE_CHECKING:
    import neo4j
    from numpy.typing import NDArray

    from argkb.embed.model import Embedder

__all__ = [
    "Bm25Ranker",
    "CandidatePool",
    "CosineRanker",
    "RandomRanker",
    "bm25",
    "bm25_nostance",
    "cosine",
    "cosine_nostance",
    "random_claim",
    "random_claim_nostance",
    "random_collection",
]

SEEDS = tuple(range(10))
FETCH = 10_000  # index hits read before the scope filters


def _stance(query: Query, stance_aware: bool) -> Stance | None:
    return query.stance if stance_aware else None


class Bm25Ranker:
    """BM25 over the full-text index of premise texts (see the module docstring)."""

    def __init__(
        self,
        driver: neo4j.Driver,
        database: str | None = None,
        *,
        stance_aware: bool = True,
        index: str = "premise_text",
        name: str = "bm25",
    ) -> None:
        self.driver, self.database = driver, database
        self.stance_aware, self.index, self.name = stance_aware, index, name
        self._candidates = CandidatePool(driver, database, vectors=False)

    def rank(self, query: Query, k: int) -> Ranking:
        terms = lucene_query(query.text)
        if not terms.strip():
            return Ranking(())
        stance = _stance(query, self.stance_aware)
        scoped = query.collection is not None or stance is not None
        limit = max(FETCH, k) if scoped else k + 1
        while True:
            records = cypher.read(self.driver, "baseline/bm25", database=self.database,
                                  index=self.index, query=terms, limit=limit)  # fmt: skip
            # the index cuts a run of equal scores anywhere: read on until the last hit read
            # scores below the k-th, so that the whole run is ordered by key (scoped: FETCH)
            if scoped or len(records) < limit or records[-1]["score"] < records[k - 1]["score"]:
                break
            limit *= 2
        if scoped:
            allowed = self._candidates.uids(query.collection, stance)
            records = [r for r in records if r["uid"] in allowed]
        records = records[:k]
        return Ranking.from_ids([r["uid"] for r in records], [r["score"] for r in records])


class CandidatePool:
    """Candidate premises per ``(collection, stance)``, read once and shared by replicas."""

    def __init__(self, driver: neo4j.Driver, database: str | None, vectors: bool) -> None:
        self.driver, self.database, self.vectors = driver, database, vectors
        self._cache: dict[tuple[str | None, str | None], list[Any]] = {}
        self._uids: dict[tuple[str | None, str | None], frozenset[str]] = {}

    def get(self, collection: str | None, stance: Stance | None) -> list[Any]:
        key = (collection, stance)
        if key not in self._cache:
            self._cache[key] = cypher.read(
                self.driver,
                "baseline/candidates" if collection is not None else "baseline/candidates_any",
                database=self.database,
                collection=collection,
                stance=stance,
                vectors=self.vectors,
            )
        return self._cache[key]

    def uids(self, collection: str | None, stance: Stance | None) -> frozenset[str]:
        key = (collection, stance)
        if key not in self._uids:
            self._uids[key] = frozenset(r["uid"] for r in self.get(collection, stance))
        return self._uids[key]


class CosineRanker:
    """Cosine similarity of embeddings, no deduplication (see the module docstring)."""

    def __init__(
        self,
        driver: neo4j.Driver,
        database: str | None,
        embedder: Embedder,
        *,
        stance_aware: bool = True,
        index: str = "premise_embedding",
        name: str = "cosine",
    ) -> None:
        self.driver, self.database, self.embedder = driver, database, embedder
        self.stance_aware, self.index, self.name = stance_aware, index, name
        self._candidates = CandidatePool(driver, database, vectors=True)
        self._matrices: dict[tuple[str | None, str | None], tuple[list[str], NDArray[Any]]] = {}

    def _matrix(self, collection: str, stance: Stance | None) -> tuple[list[str], NDArray[Any]]:
        import numpy as np

        key = (collection, stance)
        if key not in self._matrices:
            records = self._candidates.get(collection, stance)
            model = getattr(self.embedder, "model_id", None)
            uids = [r["uid"] for r in records]
            vectors: list[Any] = [
                r["embedding"] if r["embedding"] is not None and r["model"] == model else None
                for r in records
            ]
            missing = [i for i, v in enumerate(vectors) if v is None]
            if missing:
                fresh = self.embedder.embed([records[i]["text"] or "" for i in missing])
                for i, vector in zip(missing, fresh, strict=True):
                    vectors[i] = vector
            matrix = (
                np.asarray(vectors, dtype=np.float32)
                if vectors
                else np.zeros((0, 1), dtype=np.float32)
            )
            norms = np.linalg.norm(matrix, axis=1, keepdims=True) if len(matrix) else matrix
            if len(matrix):
                matrix = (matrix / np.where(norms == 0, 1, norms)).astype(np.float32)
            self._matrices[key] = (uids, matrix)
        return self._matrices[key]

    def rank(self, query: Query, k: int) -> Ranking:
        import numpy as np

        vector = np.asarray(self.embedder.embed([query.text])[0], dtype=np.float32)
        vector = vector / (float(np.linalg.norm(vector)) or 1.0)
        stance = _stance(query, self.stance_aware)
        if query.collection is None:
            records = cypher.read(
                self.driver,
                "baseline/vector",
                database=self.database,
                index=self.index,
                fetch=max(FETCH // 10, k),
                vector=vector.tolist(),
                stance=stance,
                k=k,
            )
            return Ranking.from_ids([r["uid"] for r in records], [r["score"] for r in records])
        uids, matrix = self._matrix(query.collection, stance)
        if not uids:
            return Ranking(())
        similarity = matrix @ vector
        # stable sort on -similarity: ties keep uid order, so the ranking is reproducible
        order = np.argsort(-similarity, kind="stable")[:k]
        return Ranking.from_ids([uids[i] for i in order], [float(similarity[i]) for i in order])


class RandomRanker:
    """A seeded shuffle of the candidates (``pool="collection"``) or the claim's premises."""

    def __init__(
        self,
        driver: neo4j.Driver,
        database: str | None,
        seed: int,
        *,
        stance_aware: bool = True,
        pool: str = "collection",
        name: str = "random",
        candidates: CandidatePool | None = None,
    ) -> None:
        if pool not in ("collection", "claim"):
            raise ValueError(f"pool must be 'collection' or 'claim', got {pool!r}")
        self.driver, self.database, self.seed = driver, database, seed
        self.stance_aware, self.pool, self.name = stance_aware, pool, name
        self._candidates = candidates or CandidatePool(driver, database, vectors=False)
        self._claims: dict[tuple[str, str | None, str | None], list[str]] = {}

    def _pool(self, query: Query) -> list[str]:
        stance = _stance(query, self.stance_aware)
        if self.pool == "claim":
            from argkb.loaders.records import text_key

            key = (text_key(query.text), stance, query.collection)
            if key not in self._claims:
                records = cypher.read(
                    self.driver,
                    "baseline/claim_premises",
                    database=self.database,
                    claim=key[0],
                    stance=stance,
                    collection=query.collection,
                )
                self._claims[key] = [r["uid"] for r in records]
            if self._claims[key]:
                return self._claims[key]
        return [r["uid"] for r in self._candidates.get(query.collection, stance)]

    def rank(self, query: Query, k: int) -> Ranking:
        pool = self._pool(query)
        # a str seed is hashed with SHA-512 by random.Random: stable across processes
        rng = random.Random(f"{self.seed}\0{query.qid}")
        return Ranking.from_ids(rng.sample(pool, min(k, len(pool))))


# -- factories, as the evaluation harness's registry calls them -------------------------------


def bm25(driver: neo4j.Driver, database: str | None, embedder: Embedder | None) -> Bm25Ranker:
    return Bm25Ranker(driver, database, stance_aware=True, name="bm25")


def bm25_nostance(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None
) -> Bm25Ranker:
    return Bm25Ranker(driver, database, stance_aware=False, name="bm25-nostance")


def _need(embedder: Embedder | None, name: str) -> Embedder:
    if embedder is None:
        from argkb.errors import ConfigError

        raise ConfigError(f"the {name} baseline needs an embedder")
    return embedder


def cosine(driver: neo4j.Driver, database: str | None, embedder: Embedder | None) -> CosineRanker:
    return CosineRanker(driver, database, _need(embedder, "cosine"), name="cosine")


def cosine_nostance(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None
) -> CosineRanker:
    return CosineRanker(
        driver, database, _need(embedder, "cosine"), stance_aware=False, name="cosine-nostance"
    )


def _randoms(
    driver: neo4j.Driver, database: str | None, *, stance_aware: bool, pool: str, name: str
) -> list[RandomRanker]:
    shared = CandidatePool(driver, database, vectors=False)
    return [
        RandomRanker(
            driver,
            database,
            seed,
            stance_aware=stance_aware,
            pool=pool,
            name=name,
            candidates=shared,
        )
        for seed in SEEDS
    ]


def random_collection(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None
) -> list[RandomRanker]:
    return _randoms(driver, database, stance_aware=True, pool="collection", name="random")


def random_claim(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None
) -> list[RandomRanker]:
    return _randoms(driver, database, stance_aware=True, pool="claim", name="random-claim")


def random_claim_nostance(
    driver: neo4j.Driver, database: str | None, embedder: Embedder | None
) -> list[RandomRanker]:
    return _randoms(
        driver, database, stance_aware=False, pool="claim", name="random-claim-nostance"
    )
