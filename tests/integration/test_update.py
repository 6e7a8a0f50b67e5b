"""``argkb update`` on a real Neo4j: after a load it runs the stale steps (embed, cluster,
pagerank) in order and nothing else, leaves ``argkb status`` with nothing stale, does nothing when
nothing is stale, changes nothing with ``--dry-run``, and refuses a graph with an unfinished load.

The demo corpus is split by topic as in test_incremental.py: A first, then B added.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from graphs import argkb_ok

from argkb.cli import main
from argkb.ingest import load_records
from argkb.loaders import reader

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
DEMO = Path(__file__).resolve().parents[2] / "examples" / "debates.json"
B_TOPICS = ("social media", "nuclear")


def _split(folder: Path) -> tuple[Path, Path]:
    arguments = json.loads(DEMO.read_text())["arguments"]
    in_b = [any(t in a["conclusion"].lower() for t in B_TOPICS) for a in arguments]
    paths = folder / "a.json", folder / "b.json"
    for path, keep in zip(paths, (False, True), strict=True):
        path.write_text(json.dumps({"arguments": [a for a, b in zip(arguments, in_b, strict=True)
                                                  if b == keep]}))  # fmt: skip
    return paths


def _update(neo4j_uri: str, *options: str) -> dict[str, Any]:
    """``argkb update --json``: the report per step."""
    out = json.loads(argkb_ok(neo4j_uri, "update", "--json", *options).stdout)
    return {step["step"]: step for step in out["steps"]}


def _stale(neo4j_uri: str) -> dict[str, int]:
    status = json.loads(argkb_ok(neo4j_uri, "status", "--json").stdout)
    assert status["incomplete_loads"] == []
    return {entry["what"]: entry["count"] for entry in status["stale"]}


def _derived(driver: Any) -> dict[str, Any]:
    """What the steps write: vectors, memberships, SAME_AS edges, scores (counts and sums)."""
    row = driver.execute_query(
        "MATCH (u:Unit) WITH count(u.embedding) AS vectors, count(u.pagerank) AS scored, "
        "sum(u.pagerank) AS mass "
        "RETURN vectors, scored, mass, COUNT { ()-[:IN_CLUSTER]->() } AS memberships, "
        "COUNT { ()-[:SAME_AS]->() } AS same_as, "
        "COUNT { (a:Argument) WHERE a.relevance_avg IS NOT NULL } AS relevances"
    ).records[0]
    return dict(row)


@pytest.fixture(scope="module")
def corpora(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return _split(tmp_path_factory.mktemp("update"))


def test_update_runs_the_stale_steps_in_order_and_only_those(
    db: Any, neo4j_uri: str, corpora: tuple[Path, Path]
) -> None:
    path_a, path_b = corpora
    load_records(db, "argsme", [path_a], reader("argsme")([path_a]))
    before = _stale(neo4j_uri)
    assert before["units_without_embedding"] > 0 and before["units_without_pagerank"] > 0

    first = _update(neo4j_uri)
    # pipeline order; stance not asked
    assert list(first) == ["embed", "sentences", "cluster", "pagerank"]
    assert all(step["ran"] for step in first.values())
    assert first["embed"]["stale"]["units_without_embedding"] == before["units_without_embedding"]
    assert first["embed"]["result"]["units"] == before["units_without_embedding"]
    # clusters were not stale before the embedding existed; the step found them after it
    assert first["cluster"]["stale"]["claims_without_cluster"] > 0
    assert [r["mode"] for r in first["cluster"]["result"]["runs"]] == ["rebuild", "rebuild"]
    assert first["pagerank"]["result"]["residual"] < 1e-10
    assert set(_stale(neo4j_uri).values()) == {0}
    done = _derived(db)
    assert done["vectors"] > 0 and done["memberships"] > 0 and done["same_as"] > 0

    again = _update(neo4j_uri)
    assert [step["ran"] for step in again.values()] == [False, False, False, False]
    assert _derived(db) == done  # nothing was written again

    load_records(db, "argsme", [path_b], reader("argsme")([path_b]))
    stale_b = _stale(neo4j_uri)
    dry = _update(neo4j_uri, "--dry-run")
    assert not any(step["ran"] for step in dry.values())
    assert dry["embed"]["stale"]["units_without_embedding"] == stale_b["units_without_embedding"]
    assert _stale(neo4j_uri) == stale_b  # --dry-run changed nothing
    text = argkb_ok(neo4j_uri, "update", "--dry-run").stdout
    assert text.splitlines()[-1].startswith("would run: embed, sentences, cluster, pagerank")

    result = argkb_ok(neo4j_uri, "update")
    lines = [line for line in result.stderr.splitlines() if line.startswith("update:")]
    assert [line.split(":")[1].strip() for line in lines] == [
        "embed", "embed", "sentences", "sentences", "cluster", "cluster", "pagerank", "pagerank",
    ]  # fmt: skip
    assert "running 'argkb embed'" in lines[0] and "done in" in lines[1]
    assert (
        result.stdout.strip().splitlines()[-1] == "updated: ran embed, sentences, cluster, pagerank"
    )
    assert set(_stale(neo4j_uri).values()) == {0}
    after = _derived(db)
    assert after["vectors"] > done["vectors"] and after["memberships"] > done["memberships"]
    assert after["scored"] == after["vectors"]  # every unit of A and B has a score


def test_update_after_b_is_incremental_like_the_commands(db: Any, neo4j_uri: str) -> None:
    """The graph of the previous test, B included: clusters exist, so a further update that
    finds new units places them incrementally, as 'argkb cluster' would (here: a unit without
    its cluster membership)."""
    db.execute_query(
        "MATCH (u:Premise)-[r:IN_CLUSTER]->() WITH u, r LIMIT 1 DELETE r SET u.pagerank = null"
    )
    stale = _stale(neo4j_uri)
    assert stale["premises_without_cluster"] == 1 and stale["units_without_pagerank"] == 1
    report = _update(neo4j_uri)
    assert not report["embed"]["ran"]
    assert [r["mode"] for r in report["cluster"]["result"]["runs"]] == ["incremental"] * 2
    assert report["cluster"]["result"]["runs"][1]["new_units"] == 1
    assert report["pagerank"]["ran"]
    assert set(_stale(neo4j_uri).values()) == {0}


def test_update_refuses_an_unfinished_load_in_one_line(db: Any, neo4j_uri: str) -> None:
    """A corpus a killed load left 'loading' is completed only by its load: update says so."""
    db.execute_query("MATCH (c:Corpus) WITH c LIMIT 1 SET c.status = 'loading', c.was = 'complete'")
    try:
        result = CliRunner().invoke(main, ["update"], env={"NEO4J_URI": neo4j_uri})
        assert result.exit_code == 1
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("Error: load "), result.output
        assert "run the same 'argkb load' again" in lines[0]
    finally:
        db.execute_query("MATCH (c:Corpus {was: 'complete'}) SET c.status = 'complete' "
                         "REMOVE c.was")  # fmt: skip
