"""Bulk loads: full-text indexes dropped for the load and built afterwards; same graph, and the
indexes come back after a failed or killed load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from graphs import kill_load_midway, load, snapshot

import argkb.ingest
from argkb.db.schema import init_schema
from argkb.errors import LoadError

pytestmark = pytest.mark.neo4j
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "argsme"
FULLTEXT = {"claim_text", "premise_text"}


def fulltext(driver) -> dict[str, str]:
    """argkb's full-text indexes that exist: name -> state."""
    rows = driver.execute_query("SHOW FULLTEXT INDEXES YIELD name, state").records
    return {r["name"]: r["state"] for r in rows if r["name"] in FULLTEXT}


def marks(driver) -> list:
    return driver.execute_query(
        "MATCH (c:Corpus) WHERE c.bulk_indexes IS NOT NULL RETURN c.cid AS cid"
    ).records


@pytest.fixture()
def clean(db, wipe_db):
    wipe_db(db)
    init_schema(db)
    return db


def test_bulk_load_gives_the_graph_of_a_normal_load_and_online_indexes(
    clean, wipe_db, tmp_path: Path
) -> None:
    from synthcorpus import write_json

    corpus = tmp_path / "synth.json"
    write_json(corpus, 400, seed=3)
    normal = load(clean, "argsme", corpus, bulk=False, batch_size=64)
    assert not normal.bulk and "index" not in normal.seconds
    expected = snapshot(clean)

    wipe_db(clean)
    init_schema(clean)
    bulk = load(clean, "argsme", corpus, bulk=True, batch_size=64)
    assert bulk.bulk and bulk.seconds["index"] >= 0
    assert bulk.seconds["total"] >= bulk.seconds["write"] + bulk.seconds["index"]
    assert snapshot(clean) == expected
    assert (bulk.arguments, bulk.units, bulk.sources, bulk.reuse_edges) == (
        normal.arguments, normal.units, normal.sources, normal.reuse_edges)  # fmt: skip
    assert (bulk.nodes_created, bulk.relationships_created) == (
        normal.nodes_created, normal.relationships_created)  # fmt: skip
    assert fulltext(clean) == {"claim_text": "ONLINE", "premise_text": "ONLINE"}
    assert not marks(clean)
    # the rebuilt indexes hold every claim and premise
    for index, label in (("claim_text", "Claim"), ("premise_text", "Premise")):
        text = clean.execute_query(
            f"MATCH (u:{label}) RETURN u.text AS t ORDER BY u.uid LIMIT 1"
        ).records[0]["t"]
        word = max(text.split(), key=len).strip(".,;:!?\"'()")
        hits = clean.execute_query(
            "CALL db.index.fulltext.queryNodes($index, $q) YIELD node RETURN count(node) AS n",
            index=index, q=f'"{word}"',
        ).records[0]["n"]  # fmt: skip
        assert hits >= 1
    # loading again is still a no-op, and keeps the indexes
    again = load(clean, "argsme", corpus, bulk=True)
    assert again.already_loaded and snapshot(clean) == expected
    assert set(fulltext(clean)) == FULLTEXT


def test_bulk_is_automatic_for_large_input_into_an_empty_graph(
    clean, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = load(clean, "argsme", FIXTURES / "small.json")
    assert not small.bulk  # a few bytes: not worth rebuilding the indexes
    monkeypatch.setattr(argkb.ingest, "BULK_MIN_BYTES", 0)
    other = load(clean, "argsme", FIXTURES / "small.jsonl")
    assert not other.bulk  # the graph holds another corpus
    assert set(fulltext(clean)) == FULLTEXT

    clean.execute_query("MATCH (n) DETACH DELETE n")
    first = load(clean, "argsme", FIXTURES / "small.json")
    assert first.bulk  # empty graph, input over the (patched) threshold
    assert fulltext(clean) == {"claim_text": "ONLINE", "premise_text": "ONLINE"}


def test_failed_bulk_load_gives_the_indexes_back(clean, tmp_path: Path) -> None:
    arguments = [
        {"id": f"a{i}", "conclusion": f"conclusion {i}",
         "premises": [{"text": f"premise {i}", "stance": "PRO"}]}
        for i in range(5)
    ] + [{"id": "bad", "conclusion": "", "premises": [{"text": "p", "stance": "PRO"}]}]  # fmt: skip
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"arguments": arguments}))
    with pytest.raises(LoadError, match="missing or empty"):
        load(clean, "argsme", path, bulk=True, batch_size=2)
    assert set(fulltext(clean)) == FULLTEXT
    assert not marks(clean)
    # the failed load is undone, as a normal one is: the batches before the bad record are gone
    n = clean.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"]
    assert n == 0


KILL_SCRIPT = """
import sys
from argkb.cli import main
sys.argv = ["argkb", "load", "argsme", sys.argv[1], "--batch-size", "50", "--bulk", "--json"]
main()
"""


def _killed_bulk_load(driver, neo4j_uri: str, corpus: Path) -> None:
    """Start a bulk load of ``corpus`` in a child process and SIGKILL it half-way."""
    written = kill_load_midway(driver, neo4j_uri, KILL_SCRIPT, corpus)
    assert written >= 500
    # killed mid-load: the full-text indexes are gone, and the corpus node says so
    assert fulltext(driver) == {}
    assert len(marks(driver)) == 1


def test_killed_bulk_load_resumes_to_the_same_graph_with_indexes(
    clean, wipe_db, tmp_path: Path, neo4j_uri: str
) -> None:
    from synthcorpus import write_json

    corpus = tmp_path / "synth.json"
    write_json(corpus, 3000, seed=7)
    _killed_bulk_load(clean, neo4j_uri, corpus)

    resumed = load(clean, "argsme", corpus)  # small input, graph not empty: a normal load
    assert not resumed.already_loaded
    assert set(fulltext(clean)) == FULLTEXT and not marks(clean)
    after_resume = snapshot(clean)

    wipe_db(clean)
    init_schema(clean)
    fresh = load(clean, "argsme", corpus, bulk=False)
    assert snapshot(clean) == after_resume
    assert (fresh.arguments, fresh.units, fresh.reuse_edges) == (
        resumed.arguments, resumed.units, resumed.reuse_edges)  # fmt: skip


def test_next_load_of_another_corpus_rebuilds_indexes_of_a_killed_bulk_load(
    clean, tmp_path: Path, neo4j_uri: str
) -> None:
    from synthcorpus import write_json

    corpus = tmp_path / "synth.json"
    write_json(corpus, 3000, seed=8)
    _killed_bulk_load(clean, neo4j_uri, corpus)

    other = load(clean, "argsme", FIXTURES / "small.json", bulk=False)
    assert not other.bulk
    assert set(fulltext(clean)) == FULLTEXT and not marks(clean)
    clean.execute_query("CALL db.awaitIndexes(300)")
    assert set(fulltext(clean).values()) == {"ONLINE"}
