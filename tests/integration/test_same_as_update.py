"""SAME_AS edges written for new premises only (``update_same_as``) equal a full run's
(``link_same_as``), also when the new premise is not among its claim's nearest claims.

Nearness is not symmetric: premise P can be among claim C's nearest premises while C is not among
P's nearest claims. Here 20 claims sit closer to P than C does, and C has no other premise: a full
run links C to P, so the update must find C although 20 claims come first.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from argkb.db.schema import init_schema

pytestmark = pytest.mark.neo4j
DIMS = 4
K = 2  # nearest premises per claim (update_same_as and link_same_as take the same k)


def _unit(driver: Any, uid: str, label: str, vector: list[float]) -> int:
    query = f"CREATE (u:Unit:{label} {{uid: $uid, embedding: $v}}) RETURN id(u) AS id"
    record = driver.execute_query(query, uid=uid, v=vector).records[0]
    return int(record["id"])


def _at(angle: float) -> list[float]:
    """A unit vector in the plane of the first two axes: cosine with e1 is cos(angle)."""
    return [math.cos(angle), math.sin(angle), 0.0, 0.0]


def _same_as(driver: Any) -> set[tuple[str, str]]:
    records = driver.execute_query(
        "MATCH (a:Unit)-[:SAME_AS {method: 'embedding'}]->(b:Unit) RETURN a.uid AS a, b.uid AS b"
    ).records
    return {(r["a"], r["b"]) for r in records}


def test_a_new_premise_reaches_a_claim_it_is_not_nearest_to(db) -> None:
    from argkb.cluster.store import link_same_as
    from argkb.cluster.update import update_same_as

    init_schema(db, dimensions=DIMS)
    db.execute_query("CALL db.awaitIndexes(60)")
    # 20 claims close to e1 (cosine > .99), claim c at cosine .8 with e1, far from the others' side
    for i in range(20):
        _unit(db, f"near{i}", "Claim", _at(0.01 * (i + 1)))
    _unit(db, "c", "Claim", _at(-math.acos(0.8)))
    _unit(db, "far", "Premise", [0.0, 0.0, 1.0, 0.0])  # an old premise near no claim
    link_same_as(db, k=K)
    assert _same_as(db) == set()

    p = _unit(db, "p", "Premise", _at(0.0))  # the new premise, e1
    written = update_same_as(db, claims=[], premises=[p], k=K)
    updated = _same_as(db)
    assert ("c", "p") in updated  # c's only premise above the threshold (.6) is p
    assert written == len(updated) == 21

    link_same_as(db, k=K)  # the full run writes the same edges
    assert _same_as(db) == updated
