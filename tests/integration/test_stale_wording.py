"""The words of ``argkb status``, ``argkb update`` and ``argkb query`` when the pipeline is
behind, on a real Neo4j (an audit, session 32, found three wrong):

* a count of one was plural: "1 corpora loaded since the last cluster run", "1 corpora since
  cluster";
* "arguments without relevance (PageRank is older than the last load)" was also said of a graph
  PageRank never ran on;
* an answer from a graph never clustered said "1 corpus loaded since the last 'argkb cluster'".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from graphs import argkb_ok

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "debates.json"
SMALL = ROOT / "tests" / "fixtures" / "argsme" / "small.json"
CLAIM = "We should abandon fossil fuels"


def _stale_rows(neo4j_uri: str) -> list[str]:
    """The lines under ``stale:`` in ``argkb status``."""
    lines = argkb_ok(neo4j_uri, "status").stdout.splitlines()
    start = lines.index("stale:")
    end = next(i for i, line in enumerate(lines) if line.startswith("corpora:"))
    return [line.strip() for line in lines[start + 1 : end]]


def _notes(neo4j_uri: str) -> list[str]:
    out = json.loads(argkb_ok(neo4j_uri, "query", CLAIM, "--k", "2", "--json").stdout)
    return list(out["notes"])


def _loaded_and_embedded(db: Any, neo4j_uri: str) -> None:
    db.execute_query("MATCH (n) DETACH DELETE n")
    argkb_ok(neo4j_uri, "load", "argsme", str(DEMO))
    argkb_ok(neo4j_uri, "embed")


def test_status_says_pagerank_never_ran_on_a_graph_it_never_ran_on(db: Any, neo4j_uri: str) -> None:
    _loaded_and_embedded(db, neo4j_uri)
    arguments = db.execute_query(
        "MATCH (a:Argument) WHERE EXISTS { (a)-[:CONCLUDES]->() } RETURN count(a) AS n"
    ).records[0]["n"]
    rows = _stale_rows(neo4j_uri)
    assert f"{arguments:,} arguments without relevance (PageRank has not run on this graph yet): " \
        "run 'argkb pagerank --warm'" in rows, rows  # fmt: skip
    assert not any("older than the last load" in row for row in rows), rows


def test_an_answer_from_a_graph_never_clustered_says_so(db: Any, neo4j_uri: str) -> None:
    _loaded_and_embedded(db, neo4j_uri)
    (note,) = _notes(neo4j_uri)
    assert note.startswith("the graph is not clustered yet ('argkb cluster' has not run)"), note
    assert note.endswith("run 'argkb update'")
    argkb_ok(neo4j_uri, "cluster")
    assert _notes(neo4j_uri) == []


def test_after_a_second_load_counts_of_one_are_singular(db: Any, neo4j_uri: str) -> None:
    db.execute_query("MATCH (n) DETACH DELETE n")
    argkb_ok(neo4j_uri, "load", "argsme", str(DEMO))
    argkb_ok(neo4j_uri, "update")
    argkb_ok(neo4j_uri, "load", "argsme", str(SMALL))

    rows = _stale_rows(neo4j_uri)
    assert not any(row.startswith("1 corpora") for row in rows), rows
    assert "1 corpus loaded since the last cluster run (claim frequencies cf_pro/cf_con may be " \
        "stale): run 'argkb cluster'" in rows, rows  # fmt: skip
    assert "1 corpus loaded since the last 'argkb sentences' (its premises may be missing from " \
        "'argkb query --pairs', which notes them): run 'argkb sentences'" in rows, rows  # fmt: skip
    older = "arguments without relevance (PageRank is older than the last load)"
    assert any(row.endswith(f"{older}: run 'argkb pagerank --warm'") for row in rows), rows

    stale = {
        s["what"]: s for s in json.loads(argkb_ok(neo4j_uri, "status", "--json").stdout)["stale"]
    }
    assert stale["corpora_since_cluster"]["count"] == 1
    assert stale["corpora_since_cluster"]["description"].startswith("corpus loaded since")

    dry = argkb_ok(neo4j_uri, "update", "--dry-run").stdout.splitlines()
    assert "cluster: 1 corpus since cluster" in dry, dry
    sentences = next(line for line in dry if line.startswith("sentences: "))
    assert sentences.endswith(", 1 corpus since sentences"), sentences
