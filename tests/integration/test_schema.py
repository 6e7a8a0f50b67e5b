"""`argkb init` against a real server: idempotent, and every shipped Cypher file parses."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from argkb.db import cypher
from argkb.db.schema import graph_counts, init_schema
from argkb.errors import ServerVersionError

pytestmark = pytest.mark.neo4j
ARGKB = str(Path(sys.executable).parent / "argkb")  # the console script of this environment


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


def _analyzer(driver, name: str) -> str:
    records, _, _ = driver.execute_query(
        "SHOW FULLTEXT INDEXES YIELD name, options WHERE name = $name "
        "RETURN options.indexConfig['fulltext.analyzer'] AS analyzer",
        {"name": name},
    )
    return records[0]["analyzer"]


def _hits(driver, index: str, query: str) -> list[str]:
    records, _, _ = driver.execute_query(
        "CALL db.index.fulltext.queryNodes($index, $query) YIELD node RETURN node.uid AS uid",
        {"index": index, "query": query},
    )
    return [record["uid"] for record in records]


def _status_text(neo4j_uri: str) -> str:
    env = {**os.environ, "NEO4J_URI": neo4j_uri}
    done = subprocess.run([ARGKB, "status"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_init_rebuilds_a_full_text_index_made_with_another_analyzer(db, neo4j_uri) -> None:
    """A graph from an argkb whose premise_text had Neo4j's default analyzer: `init` builds it
    again with the schema's English analyzer, and stemmed queries find what they did not."""
    from argkb.db.schema import indexes, outdated_indexes

    init_schema(db)
    assert _analyzer(db, "premise_text") == "english" and outdated_indexes(indexes(db)) == []
    db.execute_query("CREATE (:Unit:Premise {uid: 'p1', text: 'Cats were running away'})")
    db.execute_query("DROP INDEX premise_text")
    db.execute_query("CREATE FULLTEXT INDEX premise_text FOR (u:Premise) ON EACH [u.text]")
    db.execute_query("CALL db.awaitIndexes(300)")
    assert _hits(db, "premise_text", "runs") == []  # no stemming
    old = {"name": "premise_text", "kind": "FULLTEXT", "have": "standard-no-stop-words",
           "want": "english"}  # fmt: skip
    assert outdated_indexes(indexes(db)) == [old]
    assert ("warning: full-text index premise_text uses the analyzer standard-no-stop-words, "
            "argkb's schema has english: run 'argkb init'") in _status_text(neo4j_uri)  # fmt: skip
    report = init_schema(db)
    assert [index["name"] for index in report.rebuilt] == ["premise_text"]
    assert report.created == 0 and outdated_indexes(report.indexes) == []
    assert _analyzer(db, "premise_text") == "english"
    assert _hits(db, "premise_text", "runs") == ["p1"]  # online and stemmed once init returns
    assert init_schema(db).rebuilt == []
    assert "analyzer" not in _status_text(neo4j_uri)
    db.execute_query("MATCH (u:Unit) DETACH DELETE u")


def test_update_builds_an_outdated_full_text_index_again(db) -> None:
    """`argkb update` runs `init` when an index has another analyzer, not only when one is
    missing."""
    from argkb.db.schema import indexes, outdated_indexes
    from argkb.pipeline import create_missing_schema

    init_schema(db)
    assert create_missing_schema(db, None) is False
    db.execute_query("DROP INDEX claim_text")
    db.execute_query("CREATE FULLTEXT INDEX claim_text FOR (u:Claim) ON EACH [u.text]")
    assert [o["name"] for o in outdated_indexes(indexes(db))] == ["claim_text"]
    assert create_missing_schema(db, None) is True
    assert outdated_indexes(indexes(db)) == [] and _analyzer(db, "claim_text") == "english"
