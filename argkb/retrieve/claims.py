"""First stage: claims similar to the query, with P(c|q) (Dumani et al., ECIR 2020, Sec. 4.2).

Two retrievers run against Neo4j's indexes: BM25 over claim texts (Lucene full-text index) and
cosine over claim embeddings (vector index). Their union is scored by

    s(c) = w * cos(q, c) + (1 - w) * bm25(c) / max bm25,

with ``w = 1`` by default (cosine alone; BM25 proposes candidates whose cosine the server then
computes: see ``QuerySettings.claim_weight``). Claims with ``cos < min_similarity`` are dropped (so
an unrelated corpus answers "no similar claim" instead of noise) and the top ``k`` are kept.
The paper asks to recalibrate retrieval scores into probabilities; argkb uses a softmax,
``P(c|q) = exp(s(c)/T) / sum exp(s/T)`` over the top ``k``: a small temperature ``T``
concentrates the mass on the claims that really match, a large one spreads it (``T = None``
gives the plain ``s(c) / sum s``). ``T`` is tuned on ArgKP train (docs/evaluation.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from argkb.db import cypher
from argkb.retrieve.lucene import lucene_query
from argkb.retrieve.routes import unless_index_missing

if TYPE_CHECKING:
    import neo4j
    import numpy as np
    from numpy.typing import NDArray


@dataclass(frozen=True)
class RetrievedClaim:
    id: int  # Neo4j internal id
    cosine: float
    bm25: float
    score: float
    p: float  # P(c|q)


def _both_routes(
    driver: neo4j.Driver, escaped: str, vector: list[float], pool: int, database: str | None
) -> tuple[dict[int, float], dict[int, float]] | None:
    """Cosine and BM25 hits of both claim routes in one query (``claims_routes``); None when
    an index is unavailable or still populating (the caller then asks each route on its own)."""
    from argkb.retrieve.routes import read_if_available

    columns = read_if_available(
        lambda: cypher.read_columns(driver, "query/claims_routes", database=database, k=pool,
                                    text=escaped, vector=vector),
        driver, ["claim_embedding", "claim_text"], database,
    )  # fmt: skip
    if columns is None:
        return None
    hits = zip(columns["vector_id"], columns["vector_score"], strict=True)
    cosine = {cid: cypher.cosine(float(score)) for cid, score in hits}
    bm25 = dict(zip(columns["text_id"], map(float, columns["text_score"]), strict=True))
    for cid, score in zip(columns["text_id"], columns["text_cosine"], strict=True):
        if cid not in cosine and score >= -1.0:  # -2.0: no embedding, so no cosine
            cosine[cid] = cypher.cosine(float(score))
    return cosine, bm25


def retrieve_claims(
    driver: neo4j.Driver,
    text: str,
    vector: NDArray[np.float32],
    *,
    database: str | None = None,
    k: int = 10,
    pool: int = 50,
    weight: float = 1.0,
    min_similarity: float = 0.4,
    temperature: float | None = 0.05,
    notes: list[str] | None = None,
) -> list[RetrievedClaim]:
    """The top ``k`` claims for the query with their P(c|q), best first.

    A missing or populating index leaves its retriever out and adds a note to ``notes``
    (:mod:`argkb.retrieve.routes`).
    """
    import numpy as np

    def scores(name: str, **params: object) -> dict[int, float]:
        return cypher.read_scores(driver, name, database=database, **params)

    query_vector = [float(x) for x in vector]
    escaped = lucene_query(text)
    notes = notes if notes is not None else []
    both = _both_routes(driver, escaped, query_vector, pool, database) if escaped else None
    if both is not None:
        cosine, bm25 = both
    else:  # one route at a time: a missing index then leaves only its own route out
        cosine = {cid: cypher.cosine(score)
                  for cid, score in unless_index_missing(
                      lambda: scores("query/claims_vector", k=pool, vector=query_vector),
                      "claim_embedding", notes, driver, database).items()}  # fmt: skip
        bm25 = (
            unless_index_missing(lambda: scores("query/claims_fulltext", k=pool, text=escaped),
                                 "claim_text", notes, driver, database)
            if escaped else {}
        )  # fmt: skip
        missing = [cid for cid in bm25 if cid not in cosine]
        if missing:  # lexical hits outside the vector top `pool`: their cosine, from the server
            for cid, score in scores("query/claims_cosine", ids=missing,
                                     vector=query_vector).items():  # fmt: skip
                cosine[cid] = cypher.cosine(score)
    top_bm25 = max(bm25.values(), default=0.0)
    scored = []
    for cid, cos in cosine.items():
        if cos < min_similarity:
            continue
        lexical = bm25.get(cid, 0.0) / top_bm25 if top_bm25 > 0 else 0.0
        scored.append((weight * cos + (1.0 - weight) * lexical, cid, cos, bm25.get(cid, 0.0)))
    scored.sort(key=lambda row: (-row[0], row[1]))
    best = scored[:k]
    if not best:
        return []
    raw = np.asarray([row[0] for row in best])
    weights = raw if temperature is None else np.exp((raw - raw.max()) / temperature)
    p = weights / weights.sum()
    return [
        RetrievedClaim(cid, cos, b, s, float(prob))
        for (s, cid, cos, b), prob in zip(best, p, strict=True)
    ]
