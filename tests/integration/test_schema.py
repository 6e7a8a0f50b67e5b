"""`argkb init` against a real server: idempotent, and every shipped Cypher file parses."""

from __future__ import annotations

import re

import pytest

from argkb.db import cypher
from argkb.db.schema import graph_counts, init_schema
from argkb.errors import ServerVersionError

pytestmark = pytest.mark.neo4j


def _schema_state(report) -> tuple:
    cons = sorted((c["name"], c["type"], tuple(c["labelsOrTypes"])) for c in report.constraints)
    idx = sorted((i["name"], i["type"], i["state"]) for i in report.indexes)
    return tuple(cons), tuple(idx)


def test_init_twice_leaves_the_same_schema(db) -> None:
    first = init_schema(db)
    second = init_schema(db)
    assert first.created == 17  # 7 constraints, 4 range, 3 full-text, 3 vector indexes
    assert second.created == 0
    assert _schema_state(first) == _schema_state(second)
    names = {i["name"] for i in second.indexes}
    assert {"claim_text", "premise_text", "sentence_text", "claim_embedding",
            "premise_embedding", "sentence_embedding"} <= names  # fmt: skip


def test_vector_index_dimension_mismatch_is_reported(db) -> None:
    init_schema(db, dimensions=384)
    with pytest.raises(ServerVersionError, match="384 dimensions"):
        init_schema(db, dimensions=768)


def test_uniqueness_is_enforced(db) -> None:
    from neo4j.exceptions import ConstraintError

    init_schema(db)
    db.execute_query("CREATE (:Unit {uid: 'u1'})")
    with pytest.raises(ConstraintError):
        db.execute_query("CREATE (:Unit {uid: 'u1'})")
    db.execute_query("MATCH (u:Unit) DETACH DELETE u")


def test_counts_per_label_and_type(db) -> None:
    db.execute_query("CREATE (:Unit:Claim {uid:'a'})<-[:CONCLUDES]-(:Argument {aid:'x'})")
    counts = graph_counts(db)
    assert counts["labels"]["Unit"] == 1 and counts["labels"]["Argument"] == 1
    assert counts["relationships"]["CONCLUDES"] == 1
    db.execute_query("MATCH (n) WHERE n.uid = 'a' OR n.aid = 'x' DETACH DELETE n")


@pytest.mark.parametrize("name", cypher.names())
def test_every_cypher_file_parses(db, name: str) -> None:
    """EXPLAIN each statement of each shipped file (slots filled with a sample identifier)."""
    text = cypher.load(name)
    slots = set(re.findall(r"\{\{(\w+)\}\}", text))
    body = cypher.render(name, **{slot: "Unit" for slot in slots})
    statements = cypher.statements(name) if name == "schema" else [body]
    assert statements
    for statement in statements:
        if (
            statement.lstrip()
            .upper()
            .startswith(("CREATE CONSTRAINT", "CREATE FULLTEXT", "CREATE VECTOR", "SHOW"))
        ):
            # schema commands and SHOW cannot be EXPLAINed: run them (idempotent, read-only)
            db.execute_query(statement, {"dimensions": 384})
        else:
            db.execute_query("EXPLAIN " + statement, {})
