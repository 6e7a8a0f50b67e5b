"""Loaders keep a missing stance as ``unknown`` (JSONL premises, AIF generic S-nodes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from argkb.ingest import validate
from argkb.loaders import aif, jsonl
from argkb.loaders.common import parse_stance_label
from argkb.loaders.records import ArgumentRecord, Rejected, UnitRef


@pytest.mark.parametrize(
    ("value", "label"),
    [(None, "unknown"), ("", "unknown"), (" Unknown ", "unknown"), ("PRO", "pro"),
     ("-1", "con"), ("attack", "con"), ("maybe", None), (0, None)],
)  # fmt: skip
def test_parse_stance_label(value: object, label: str | None) -> None:
    assert parse_stance_label(value) == label


def test_jsonl_premises_without_stance(tmp_path: Path) -> None:
    path = tmp_path / "mine.jsonl"
    lines = [
        {"id": "a", "conclusion": "C", "premises": [
            {"text": "P1", "stance": "pro"}, {"text": "P2"}, {"text": "P3", "stance": None},
            {"text": "P4", "stance": "unknown"}]},
        {"id": "b", "conclusion": "D", "premises": [{"text": "P5"}]},
        {"id": "c", "conclusion": "E", "premises": [{"text": "P6", "stance": "perhaps"}]},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    records = list(jsonl.read([path]))
    arguments = [r for r in records if isinstance(r, ArgumentRecord)]
    assert [(a.aid, a.stance, [p.text for p in a.premises]) for a in arguments] == [
        ("jsonl:a:pro", "pro", ["P1"]),
        ("jsonl:a:unknown", "unknown", ["P2", "P3", "P4"]),
        ("jsonl:b", "unknown", ["P5"]),
    ]
    assert all(validate(a, 1000) is None for a in arguments)
    (bad,) = [r for r in records if isinstance(r, Rejected)]
    assert (
        str(bad) == f"{tmp_path}/mine.jsonl:3: field 'premises[0].stance': unknown stance 'perhaps'"
    )


def test_ingest_still_refuses_other_stances() -> None:
    record = ArgumentRecord("x", UnitRef("C"), (UnitRef("P"),), "maybe", where="f:1")  # type: ignore[arg-type]
    problem = validate(record, 1000)
    assert problem is not None and problem.field == "stance"


def test_aif_generic_s_node_is_unknown(tmp_path: Path) -> None:
    path = tmp_path / "map7.json"
    nodes = [("1", "I", "Coal is cheap"), ("2", "I", "We should burn coal"), ("3", "S", "?"),
             ("4", "I", "Coal kills"), ("5", "CA", "Default Conflict")]  # fmt: skip
    edges = [("1", "3"), ("3", "2"), ("4", "5"), ("5", "2")]
    path.write_text(json.dumps({
        "nodes": [{"nodeID": i, "type": t, "text": x} for i, t, x in nodes],
        "edges": [{"edgeID": str(k), "fromID": a, "toID": b}
                  for k, (a, b) in enumerate(edges, start=1)],
        "locutions": [],
    }), encoding="utf-8")  # fmt: skip
    arguments = [r for r in aif.read(path) if isinstance(r, ArgumentRecord)]
    assert [(a.aid, a.stance, a.premises[0].text, a.conclusion.text) for a in arguments] == [
        ("aif:map7:3", "unknown", "Coal is cheap", "We should burn coal"),
        ("aif:map7:5", "con", "Coal kills", "We should burn coal"),
    ]
