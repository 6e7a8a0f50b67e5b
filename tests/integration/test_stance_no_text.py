"""``argkb stance`` on premises without text (issue 26): a graph argkb did not build may hold a
Unit whose text is empty, blank or missing. Both model kinds crashed on it with a traceback and
wrote nothing, and an empty premise got a confident label (p = .716 "pro" from the linear model).
Such edges are skipped, counted in the summary, and keep their unknown stance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from graphs import load

from argkb.db.schema import init_schema

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

ENERGY = "We should abandon fossil fuels"
WARMS = "Burning coal and oil warms the planet"
LINES = [
    {"id": "e1", "conclusion": ENERGY, "premises": [
        {"text": WARMS},
        {"text": "Poor households cannot afford the alternatives", "stance": "con"},
    ]},
]  # fmt: skip
# written as another tool might have written them: the text empty, blank, or not there at all
NO_TEXT: list[dict[str, str | None]] = [
    {"uid": "x:empty", "text": ""},
    {"uid": "x:blank", "text": " \n\t "},
    {"uid": "x:missing", "text": None},
]


@pytest.fixture()
def graph(db, wipe_db, tmp_path: Path):
    wipe_db(db)
    init_schema(db)
    path = tmp_path / "energy.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in LINES), encoding="utf-8")
    load(db, "jsonl", path)
    db.execute_query(
        "MATCH (a:Argument {aid: 'jsonl:e1:unknown'}) "
        "UNWIND $units AS unit "
        "CREATE (p:Unit {uid: unit.uid}) SET p.text = unit.text "
        "CREATE (p)-[:PREMISE_OF {stance: 'unknown'}]->(a)",
        units=NO_TEXT,
    )
    # a premise with text towards a conclusion without one has no stance either
    db.execute_query(
        "MATCH (p:Unit {text: $text}) "
        "CREATE (p)-[:PREMISE_OF {stance: 'unknown'}]->(:Argument {aid: 'x:a', stance: 'unknown'})"
        "-[:CONCLUDES]->(:Unit {uid: 'x:no-claim', text: ''})",
        text=WARMS,
    )
    return db


def _edges(driver) -> dict[tuple[object, str], dict]:
    rows = driver.execute_query(
        "MATCH (p:Unit)-[r:PREMISE_OF]->(a:Argument) "
        "RETURN p.uid AS premise, a.aid AS argument, properties(r) AS r"
    ).records
    return {(row["premise"], row["argument"]): dict(row["r"]) for row in rows}


@pytest.mark.parametrize("kind", ["linear", "cross"])
def test_premises_without_text_are_skipped_counted_and_left_unknown(graph, kind: str) -> None:
    from click.testing import CliRunner

    from argkb.cli import main

    warms = graph.execute_query("MATCH (p:Unit {text: $t}) RETURN p.uid AS uid", t=WARMS).records
    predictable = (warms[0]["uid"], "jsonl:e1:unknown")
    skipped = {(unit["uid"], "jsonl:e1:unknown") for unit in NO_TEXT} | {(warms[0]["uid"], "x:a")}

    runner = CliRunner()
    args = ["stance"] if kind == "cross" else ["stance", "--kind", "linear"]  # cross: the default
    out = runner.invoke(main, args)
    assert out.exit_code == 0, out.output
    assert "Traceback" not in out.output
    lines = out.stdout.splitlines()
    assert lines[0].startswith("predicted 1 of 5 edges (")
    assert lines[1] == (
        "skipped 4 edges with no text in their premise or conclusion (empty, blank or missing): "
        "their stance stays unknown"
    )
    assert lines[2] == "premise stances: 1 from data, 1 from the model, 4 unknown"
    edges = _edges(graph)
    assert edges[predictable]["stance_source"] == "model"
    assert edges[predictable]["stance"] in ("pro", "con")
    for edge in skipped:
        assert edges[edge] == {"stance": "unknown"}, edge  # nothing written to them

    # again: only the four without text are pending, so no model is needed at all
    again = runner.invoke(main, args)
    assert again.exit_code == 0, again.output
    assert again.stdout.splitlines() == [
        "nothing to predict: the 4 edges with an unknown stance have no text in their premise "
        "or conclusion (empty, blank or missing), so their stance stays unknown; the stance "
        "model was not loaded",
        "premise stances: 1 from data, 1 from the model, 4 unknown",
    ]
    as_json = runner.invoke(main, [*args, "--json"])
    assert as_json.exit_code == 0, as_json.output
    report = json.loads(as_json.stdout)
    assert report["run"] == {
        "pending": 4, "skipped": 4, "written": 0, "pro": 0, "con": 0, "model": None,
    }  # fmt: skip
    assert report["counts"] == {"data": 1, "model": 1, "unknown": 4}
    assert _edges(graph) == edges
