"""Names from the database formatted into Cypher (labels, relationship types, index names) go
through :func:`argkb.db.cypher.quote_identifier`; on a real Neo4j, no name can end its quote.

Found by a security audit (2026-12-02): Neo4j reads ``\\uXXXX`` escapes inside backtick-quoted
names, so a label holding the six characters ``\\u0060`` (a backtick, spelled as an escape)
closed the quote that only doubled real backticks, and ``argkb status`` ran the rest of the label
as Cypher; an index named so made ``argkb db clear`` fail. Labels and index names come from
whoever writes to the database (a shared server, another program); here they are made through
parameters (``$(...)``, ``CREATE INDEX $name``), which need no quoting.
"""

from __future__ import annotations

import neo4j
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from argkb.db.clear import clear_database
from argkb.db.cypher import quote_identifier
from argkb.db.schema import graph_counts, indexes

pytestmark = pytest.mark.neo4j

BACKTICK_ESCAPE = "\\u0060"  # six characters: backslash, u, 0, 0, 6, 0
INJECTED_COUNT = f"Hostile{BACKTICK_ESCAPE}) WITH count(*) AS n RETURN 42 AS count //"


def _create_labelled(driver: neo4j.Driver, label: str, nodes: int = 1) -> None:
    driver.execute_query(
        "UNWIND range(1, $nodes) AS i CREATE (:$($label))", label=label, nodes=nodes
    )


def test_a_label_spelling_a_backtick_as_an_escape_is_counted_not_run(db: neo4j.Driver) -> None:
    _create_labelled(db, INJECTED_COUNT, nodes=3)
    try:
        counts = graph_counts(db)["labels"]
    finally:
        db.execute_query("MATCH (n) DETACH DELETE n")
    # before the fix the label closed its quote: the count was the injected 42
    assert counts == {INJECTED_COUNT: 3}


def test_db_clear_drops_an_index_whose_name_spells_a_backtick(db: neo4j.Driver) -> None:
    name = f"idx{BACKTICK_ESCAPE} IF EXISTS"
    db.execute_query("CREATE INDEX $name FOR (n:Thing) ON (n.p)", name=name)
    assert name in {index["name"] for index in indexes(db)}
    clear_database(db)  # before the fix: a syntax error, the index left in place
    assert name not in {index["name"] for index in indexes(db)}


# names made of the pieces that matter to Cypher's quoting and its escapes
PIECES = ["\\", "`", "``", BACKTICK_ESCAPE, "\\u005c", "\\u0041", "\\U0060", "u0060", "A",
          " ", ")", "//", "'", '"', "\n", "é"]  # fmt: skip
NAMES = st.lists(st.sampled_from(PIECES), min_size=1, max_size=8).map("".join)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=NAMES)
def test_every_name_matches_exactly_the_nodes_it_labels(db: neo4j.Driver, name: str) -> None:
    _create_labelled(db, name, nodes=2)
    _create_labelled(db, "Other")
    try:
        result = db.execute_query(f"MATCH (n:{quote_identifier(name)}) RETURN count(n) AS count")
    finally:
        db.execute_query("MATCH (n) DETACH DELETE n")
    assert result.keys == ["count"]
    assert result.records[0]["count"] == 2
