"""What ``argkb status`` calls stale, what ``argkb update`` then runs, and what ``argkb query``
says, after the changes an audit found them wrong for (session 24), on a real Neo4j:

* an AIF argument that only undercuts another has no conclusion, so PageRank gives it no
  relevance: it is not stale, and ``update`` reaches "up to date";
* dropping a corpus deletes its sentences; the term statistics that still count them are stale
  until ``argkb sentences`` (which ``update`` runs) recounts them;
* a corpus loaded since the last ``argkb cluster`` makes ``argkb query`` say so;
* sentence pairs asked of an empty graph say to load a corpus, not to split sentences.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from graphs import argkb_ok

from argkb.cli import main

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "debates.json"
OVA = ROOT / "tests" / "fixtures" / "aif" / "ova"


def _stale(neo4j_uri: str) -> dict[str, int]:
    status = json.loads(argkb_ok(neo4j_uri, "status", "--json").stdout)
    return {entry["what"]: entry["count"] for entry in status["stale"] if entry["count"]}


def _ran(neo4j_uri: str) -> list[str]:
    out = json.loads(argkb_ok(neo4j_uri, "update", "--json").stdout)
    return [step["step"] for step in out["steps"] if step["ran"]]


def test_pairs_on_an_empty_graph_say_to_load_first(db: Any, neo4j_uri: str) -> None:
    result = CliRunner().invoke(main, ["query", "Cars pollute", "--pairs"],
                                env={"NEO4J_URI": neo4j_uri})  # fmt: skip
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "the graph has no premises: load a corpus first" in result.output, result.output


def test_an_argument_that_only_undercuts_is_not_stale_after_update(db: Any, neo4j_uri: str) -> None:
    argkb_ok(neo4j_uri, "load", "aif", str(OVA))
    undercutting = db.execute_query(
        "MATCH (a:Argument) WHERE NOT EXISTS { (a)-[:CONCLUDES]->() } RETURN count(a) AS n"
    ).records[0]["n"]
    assert undercutting > 0  # the fixture has one: the case this test is about
    assert "pagerank" in _ran(neo4j_uri)
    assert _stale(neo4j_uri) == {}
    assert _ran(neo4j_uri) == []


def _split(folder: Path) -> tuple[Path, Path]:
    arguments = json.loads(DEMO.read_text())["arguments"]
    in_b = ["social media" in a["conclusion"].lower() for a in arguments]
    paths = folder / "a.json", folder / "b.json"
    for path, keep in zip(paths, (False, True), strict=True):
        path.write_text(json.dumps({"arguments": [a for a, b in zip(arguments, in_b, strict=True)
                                                  if b == keep]}))  # fmt: skip
    return paths


def _notes(neo4j_uri: str, claim: str) -> list[str]:
    out = json.loads(argkb_ok(neo4j_uri, "query", claim, "--k", "2", "--json").stdout)
    return list(out["notes"])


def test_drop_and_load_leave_what_status_update_and_query_say(
    db: Any, neo4j_uri: str, tmp_path: Path
) -> None:
    db.execute_query("MATCH (n) DETACH DELETE n")
    path_a, path_b = _split(tmp_path)
    argkb_ok(neo4j_uri, "load", "argsme", str(path_a))
    argkb_ok(neo4j_uri, "update")
    claim = "We should abandon fossil fuels"
    assert _notes(neo4j_uri, claim) == []

    argkb_ok(neo4j_uri, "load", "argsme", str(path_b))
    notes = _notes(neo4j_uri, claim)
    assert len(notes) == 1 and notes[0].startswith("1 corpus loaded since the last 'argkb cluster'")
    assert "run 'argkb update'" in notes[0]
    argkb_ok(neo4j_uri, "update")
    assert _notes(neo4j_uri, claim) == []

    corpus_b = db.execute_query(
        "MATCH (c:Corpus) WHERE c.files[0] ENDS WITH 'b.json' RETURN c.cid AS cid"
    ).records[0]["cid"]
    argkb_ok(neo4j_uri, "db", "drop", corpus_b, "--yes")
    stale = _stale(neo4j_uri)
    assert stale.get("sentence_statistics_off", 0) > 0, stale
    assert "sentences" in _ran(neo4j_uri)
    counted = db.execute_query(
        "MATCH (t:SentenceStats {key: 'all'}) RETURN t.sentences AS stored, "
        "COUNT { (:Sentence) } AS actual"
    ).records[0]
    assert counted["stored"] == counted["actual"] > 0
    assert _stale(neo4j_uri) == {}
