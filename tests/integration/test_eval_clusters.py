"""Issue 28, item 5: a corpus evaluated after another one in the same database is clustered;
and premises whose stance the data left unknown are placed before the engine ranks them.

The engine adapters used to cluster only a database with no clusters at all, so the second
benchmark run into one database scored its corpus without clusters (ArgKP dev TaskB@10 .691 ->
.544). Here two small corpora go through the harness one after the other, with the real model.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from argkb.db.staleness import stale_steps
from argkb.eval.adapters import CLUSTER_STALE, ensure_clusters, ensure_stance
from argkb.eval.argkp import run_argkp
from argkb.eval.harness import HarnessOptions
from argkb.eval.sigir19 import run_sigir19

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _unclustered(db, sid_prefix: str) -> dict[str, int]:
    """Embedded premises and claims of the sources ``sid_prefix`` that have no cluster."""
    records = db.execute_query(
        """
        MATCH (s:Source)<-[:FROM]-(a:Argument)
        WHERE s.sid STARTS WITH $prefix
        CALL (a) {
          MATCH (p:Premise)-[:PREMISE_OF]->(a)
          WHERE p.embedding IS NOT NULL AND NOT EXISTS { (p)-[:IN_CLUSTER]->(:PremiseCluster) }
          RETURN count(p) AS premises
        }
        CALL (a) {
          MATCH (a)-[:CONCLUDES]->(c:Claim)
          WHERE c.embedding IS NOT NULL AND NOT EXISTS { (c)-[:IN_CLUSTER]->(:ClaimCluster) }
          RETURN count(c) AS claims
        }
        RETURN sum(premises) AS premises, sum(claims) AS claims, count(a) AS arguments
        """,
        prefix=sid_prefix,
    ).records[0]
    return dict(records)


def test_a_second_corpus_is_clustered_before_it_is_scored(db, tmp_path: Path) -> None:
    from argkb.embed.model import Embedder

    def options(name: str) -> HarnessOptions:
        return HarnessOptions(["pfidf"], baselines=False, out=tmp_path / name,
                              make_embedder=Embedder)  # fmt: skip

    run_argkp(db, FIXTURES / "eval" / "argkp", options=options("argkp"))
    assert _unclustered(db, "argkp:") == {"premises": 0, "claims": 0, "arguments": 18}

    report = run_sigir19(db, FIXTURES / "sigir19", options=options("sigir19"))
    assert report.embedded > 0  # the second corpus was embedded into a clustered database
    # ... and clustered before pfidf ranked it
    assert _unclustered(db, "sigir19:") == {"premises": 0, "claims": 0, "arguments": 5}
    stale = {s.what: s.count for s in stale_steps(db) if s.what in CLUSTER_STALE}
    assert stale == dict.fromkeys(CLUSTER_STALE, 0)
    # the first corpus kept its clusters: the second was placed incrementally
    assert _unclustered(db, "argkp:")["premises"] == 0
    assert ensure_clusters(db) == []  # nothing stale, nothing run


def test_unknown_stances_are_predicted_before_the_engine_ranks(db, tmp_path: Path) -> None:
    """SIGIR-19's "Not specified" arguments have no stance; the query engine shows only pro and
    con premises, so without ``ensure_stance`` they were never answered (the fixture has one)."""
    from argkb.embed.model import Embedder
    from argkb.stance.store import stance_counts

    options = HarnessOptions(["pfidf"], baselines=False, out=tmp_path / "sigir19",
                             make_embedder=Embedder)  # fmt: skip
    run_sigir19(db, FIXTURES / "sigir19", options=options)
    counts = stance_counts(db)
    assert counts.get("unknown", 0) == 0
    assert counts.get("model", 0) >= 1  # the "Not specified" argument, placed by the model
    assert ensure_stance(db) == 0  # nothing left unknown, nothing run
