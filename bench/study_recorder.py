"""A harness ranker that answers as argkb's default and records every query's candidates.

    ARGKB_STUDY_OUT=/tmp/study/argkp-dev.pkl \\
        argkb eval argkp --data ../shared/data/argkp-2021 --split dev \\
        --ranker bench.study_recorder:recorder

The evaluation command loads, embeds and clusters the benchmark as it always does, and scores
BM25 and cosine in the same run; this ranker answers each query with the default hybrid (so its
row in the harness's table is the default's) and keeps, per query and side, the hybrid's
candidate pool (:class:`argkb.query.rankers.hybrid.SidePool`: each route's evidence), each
candidate's unit key, text and PageRank, and the claims the claim route retrieved. The pickle
written at ``ARGKB_STUDY_OUT`` is what ``bench/ranker_study.py`` fits and scores rankers on,
offline, with the harness's own metrics.
"""

from __future__ import annotations

import atexit
import os
import pickle
from dataclasses import asdict
from pathlib import Path
from typing import Any


class Recorder:
    name = "recorded-default"

    def __init__(
        self, driver: Any, database: str | None, embedder: Any,
        changes: dict[str, Any] | None = None, name: str | None = None,
    ) -> None:  # fmt: skip
        self.name = name or self.name
        from dataclasses import replace

        from argkb.eval.adapters import engine_ranker
        from argkb.query.settings import DEFAULT

        self.default = engine_ranker(driver, database, embedder,
                                     replace(DEFAULT, **(changes or {})), self.name)  # fmt: skip
        self.engine = self.default.engine
        self.driver, self.database = driver, database
        self.out = Path(os.environ["ARGKB_STUDY_OUT"])
        self.records: dict[str, dict[str, Any]] = {}
        atexit.register(self.save)

    def rank(self, query: Any, k: int) -> Any:
        self.records[query.qid] = self.record(query)
        return self.default.rank(query, k)

    def record(self, query: Any) -> dict[str, Any]:
        from argkb.db import cypher
        from argkb.query.engine import sides as wanted_sides
        from argkb.query.rankers.hybrid import side_pools

        engine = self.engine
        vector = engine.embedder.embed([query.text], use_cache=False)[0]
        reader = engine.reader
        claims = reader.similar_claims(query.text, vector)
        p_cluster, claim_cluster = reader.claim_mass(claims, vector) if claims else ({}, {})
        pools, _ = side_pools(reader, query.text, vector, p_cluster, claim_cluster,
                              query.collection, wanted_sides(query.stance or "both"))  # fmt: skip
        sides = {}
        for side, pool in pools.items():
            rows = {r["id"]: r for r in cypher.read(self.driver, "query/units",
                                                     database=self.database,
                                                     ids=pool.premises, vectors=True)}  # fmt: skip
            sides[side] = {
                "pool": {name: value for name, value in asdict(pool).items()},
                "keys": [rows[p]["key"] for p in pool.premises],
                "texts": [rows[p]["text"] for p in pool.premises],
                "pagerank": [rows[p]["pagerank"] for p in pool.premises],
                "embeddings": [rows[p]["embedding"] for p in pool.premises],
            }
        return {
            "qid": query.qid,
            "text": query.text,
            "stance": query.stance,
            "vector": [float(x) for x in vector],
            "claims": [{"cosine": c.cosine, "p": c.p, "bm25": c.bm25} for c in claims],
            "sides": sides,
        }

    def save(self) -> None:
        if self.records:
            self.out.parent.mkdir(parents=True, exist_ok=True)
            with self.out.open("wb") as handle:
                pickle.dump(self.records, handle)


def recorder(driver: Any, database: str | None, embedder: Any) -> Recorder:
    """Records what argkb's default (:data:`argkb.query.settings.DEFAULT`) answers with."""
    return Recorder(driver, database, embedder)


def cross_recorder(driver: Any, database: str | None, embedder: Any) -> Recorder:
    """Records the default with the cross-encoder alignment of the 12 most credited claims."""
    return Recorder(driver, database, embedder, {"alignment": "cross", "cross_claims": 12},
                    "recorded-cross-alignment")  # fmt: skip
