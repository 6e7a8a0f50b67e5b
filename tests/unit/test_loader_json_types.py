"""A JSON value of the wrong type is one rejected record naming its field, in the JSONL and
args.me loaders: not a value stored as given (a text pagerank), dropped without a word (an
object title) or turned into text (``argsme:{'a': 1}``). ``null`` still means "not given"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argkb.loaders import argsme, jsonl
from argkb.loaders.common import type_problem
from argkb.loaders.records import ArgumentRecord, LeftOut, Rejected, SourceRecord

LINE = {"id": "a1", "conclusion": "C one", "premises": [{"text": "P one", "stance": "pro"}]}


def _jsonl(tmp_path: Path, *objects: Any) -> Path:
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in objects), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("source", "field", "reason"),
    [
        ({"id": "s", "pagerank": "high"}, "source.pagerank", "a str, not a number"),
        ({"id": "s", "pagerank": [1, "a"]}, "source.pagerank", "a list, not a number"),
        ({"id": "s", "pagerank": True}, "source.pagerank", "a bool, not a number"),
        ({"id": "s", "pagerank": {"v": 1}}, "source.pagerank", "a dict, not a number"),
        ({"id": "s2", "title": {"x": 1}}, "source.title", "a dict, not a text"),
        ({"id": "s2", "title": 5}, "source.title", "an int, not a text"),
        ({"id": "s5", "url": ["a", "b"]}, "source.url", "a list, not a text"),
        ({"title": {"x": 1}}, "source.title", "a dict, not a text"),
    ],
)
def test_a_jsonl_source_property_of_the_wrong_type_is_rejected(
    tmp_path: Path, source: dict[str, Any], field: str, reason: str
) -> None:
    path = _jsonl(tmp_path, LINE, {**LINE, "id": "a2", "source": source})
    records = list(jsonl.read([path]))
    [problem] = [r for r in records if isinstance(r, Rejected)]
    assert (problem.where, problem.field, problem.reason) == (
        f"{tmp_path}/in.jsonl:2",
        field,
        reason,
    )
    assert [r.aid for r in records if isinstance(r, ArgumentRecord)] == ["jsonl:a1"]
    assert not [r for r in records if isinstance(r, SourceRecord)]


@pytest.mark.parametrize(
    ("change", "field", "reason"),
    [
        ({"conclusion": 5}, "conclusion", "an int, not a text"),
        ({"premises": [{"text": 42, "stance": "pro"}]}, "premises[0].text", "an int, not a text"),
        ({"premises": [{"text": " ", "stance": "pro"}]}, "premises[0].text", "missing or empty"),
        # an own-data audit (session 29): these were "missing or empty list"
        ({"premises": "Burning them warms the planet"}, "premises", "a str, not a list"),
        ({"premises": {"text": "P", "stance": "pro"}}, "premises", "a dict, not a list"),
        ({"premises": []}, "premises", "missing or empty list"),
    ],
)
def test_a_jsonl_text_of_the_wrong_type_says_so(
    tmp_path: Path, change: dict[str, Any], field: str, reason: str
) -> None:
    """A bad-input audit (2026-11-28): a number as a text was "missing or empty text"."""
    path = _jsonl(tmp_path, LINE, {**LINE, "id": "a2", **change})
    [problem] = [r for r in jsonl.read([path]) if isinstance(r, Rejected)]
    assert (problem.where, problem.field) == (f"{tmp_path}/in.jsonl:2", field)
    assert problem.reason.startswith(reason)


@pytest.mark.parametrize(
    ("change", "field", "reason"),
    [
        ({"id": 12345}, "id", "an int, not a text"),
        ({"id": ""}, "id", "missing or empty"),
        ({"conclusion": 5}, "conclusion", "an int, not a text"),
        ({"conclusion": None}, "conclusion", "missing or empty"),
        ({"premises": [{"text": 42, "stance": "PRO"}]}, "premises[0].text", "an int, not a text"),
        ({"premises": {"text": "P", "stance": "PRO"}}, "premises", "a dict, not a list"),
        ({"premises": []}, "premises", "missing or empty list"),
    ],
)
def test_an_argsme_value_of_the_wrong_type_says_so(
    tmp_path: Path, change: dict[str, Any], field: str, reason: str
) -> None:
    """A second bad-input audit (2026-11-28): args.me said "missing or empty" for these."""
    good = {**LINE, "premises": [{"text": "P one", "stance": "PRO"}]}
    path = tmp_path / "dump.json"
    path.write_text(json.dumps({"arguments": [good, {**good, "id": "a2", **change}]}))
    records = list(argsme.read([path]))
    [problem] = [r for r in records if isinstance(r, Rejected)]
    assert (problem.field, problem.reason) == (field, reason)
    assert problem.where.startswith(f"{path}#1")
    assert [r.aid for r in records if isinstance(r, ArgumentRecord)] == ["argsme:a1"]


@pytest.mark.parametrize(
    ("source", "properties"),
    [
        ({"id": "s", "pagerank": 0.25, "title": "T", "url": "u"}, {"pagerank": 0.25, "title": "T"}),
        ({"id": "s", "pagerank": 3}, {"pagerank": 3}),
        ({"id": "s", "pagerank": None, "title": None, "url": None}, {}),
        ({"id": "s", "title": ""}, {"title": ""}),
    ],
)
def test_documented_jsonl_source_objects_still_load(
    tmp_path: Path, source: dict[str, Any], properties: dict[str, Any]
) -> None:
    records = list(jsonl.read([_jsonl(tmp_path, {**LINE, "source": source})]))
    assert not [r for r in records if isinstance(r, Rejected)]
    [record] = [r for r in records if isinstance(r, SourceRecord)]
    assert record.sid == "jsonl:s"
    assert properties.items() <= dict(record.properties).items()
    assert None not in dict(record.properties).values()


ARGUMENT = {"id": "d1", "conclusion": "C one", "premises": [{"text": "P one", "stance": "PRO"}]}
BAD_CONTEXTS = [
    ({"sourceId": {"a": 1}}, "context.sourceId", "a dict, not an id"),
    ({"sourceId": ["q"]}, "context.sourceId", "a list, not an id"),
    ({"sourceId": True}, "context.sourceId", "a bool, not an id"),
    ({"sourceId": 1.5}, "context.sourceId", "a float, not an id"),
    (["q1"], "context", "a list, not an object"),
    ("q1", "context", "a str, not an object"),
    ({"sourceId": "d", "sourceTitle": {"a": 1}}, "context.sourceTitle", "a dict, not a text"),
    ({"sourceId": "d", "sourceUrl": ["u"]}, "context.sourceUrl", "a list, not a text"),
    ({"sourceId": "d", "discussionTitle": 3}, "context.discussionTitle", "an int, not a text"),
]


def _argsme(tmp_path: Path, suffix: str, *objects: Any) -> Path:
    path = tmp_path / f"args{suffix}"
    if suffix == ".json":
        path.write_text(json.dumps({"arguments": list(objects)}), encoding="utf-8")
    else:
        path.write_text("".join(json.dumps(o) + "\n" for o in objects), encoding="utf-8")
    return path


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
@pytest.mark.parametrize(("context", "field", "reason"), BAD_CONTEXTS)
def test_an_argsme_context_of_the_wrong_type_is_rejected(
    tmp_path: Path, suffix: str, context: Any, field: str, reason: str
) -> None:
    bad = {**ARGUMENT, "id": "d2", "context": context}
    records = list(argsme.read([_argsme(tmp_path, suffix, ARGUMENT, bad)]))
    [problem] = [r for r in records if isinstance(r, Rejected)]
    assert problem.where.endswith("(id d2)")
    assert problem.where.startswith(
        f"{tmp_path}/args.json#1" if suffix == ".json" else f"{tmp_path}/args.jsonl:2"
    )
    assert (problem.field, problem.reason) == (field, reason)
    assert [r.aid for r in records if isinstance(r, ArgumentRecord)] == ["argsme:d1"]
    assert not [r for r in records if isinstance(r, SourceRecord)]


@pytest.mark.parametrize(
    ("context", "sid", "properties"),
    [
        (None, None, {}),
        ({}, None, {}),
        ({"sourceId": None, "sourceTitle": "T"}, None, {}),
        ({"sourceId": ""}, None, {}),
        ({"sourceId": "d9", "sourceTitle": "T", "sourceUrl": None}, "argsme:d9", {"title": "T"}),
        ({"sourceId": 7, "discussionTitle": ""}, "argsme:7", {}),
    ],
)
def test_documented_argsme_contexts_still_load(
    tmp_path: Path, context: Any, sid: str | None, properties: dict[str, str]
) -> None:
    records = list(argsme.read([_argsme(tmp_path, ".json", {**ARGUMENT, "context": context})]))
    assert not [r for r in records if isinstance(r, Rejected)]
    [argument] = [r for r in records if isinstance(r, ArgumentRecord)]
    assert argument.source == sid
    sources = [r for r in records if isinstance(r, SourceRecord)]
    assert [(s.sid, dict(s.properties)) for s in sources] == ([(sid, properties)] if sid else [])


def test_an_argsme_source_is_yielded_once_and_checked_on_every_record(tmp_path: Path) -> None:
    first = {**ARGUMENT, "context": {"sourceId": "d", "sourceTitle": "T"}}
    again = {**ARGUMENT, "id": "d2", "context": {"sourceId": "d", "sourceTitle": "T"}}
    bad = {**ARGUMENT, "id": "d3", "context": {"sourceId": "d", "sourceTitle": ["T"]}}
    records = list(argsme.read([_argsme(tmp_path, ".json", first, again, bad)]))
    assert [r.sid for r in records if isinstance(r, SourceRecord)] == ["argsme:d"]
    assert [r.field for r in records if isinstance(r, Rejected)] == ["context.sourceTitle"]


@pytest.mark.parametrize(
    ("value", "want", "problem"),
    [
        ("x", "text", None),
        (1, "text", "an int, not a text"),
        (1.0, "number", None),
        (False, "number", "a bool, not a number"),
        (3, "id", None),
        (None, "id", "a NoneType, not an id"),
        ({}, "object", None),
        ([], "object", "a list, not an object"),
    ],
)
def test_type_problem(value: Any, want: Any, problem: str | None) -> None:
    assert type_problem(value, want) == problem


@pytest.mark.parametrize(
    ("change", "field", "reason"),
    [
        ({"conclusion": "C\x00one"}, "conclusion", "control character U+0000 at character 2 "),
        ({"conclusion": {"text": "\x1b[2JC", "id": "c"}}, "conclusion", "control character U+001B"),
        ({"premises": [{"text": "P\x7f", "stance": "pro"}]}, "premises[0].text", "control char"),
    ],
)
def test_a_jsonl_text_with_a_control_character_is_rejected(
    tmp_path: Path, change: dict[str, Any], field: str, reason: str
) -> None:
    """An own-data audit (session 29): a NUL or an escape sequence in a text loaded as given
    (and the escape reached the terminal through ``argkb query``)."""
    path = _jsonl(tmp_path, LINE, {**LINE, "id": "a2", **change})
    records = list(jsonl.read([path]))
    [problem] = [r for r in records if isinstance(r, Rejected)]
    assert (problem.where, problem.field) == (f"{tmp_path}/in.jsonl:2", field)
    assert problem.reason.startswith(reason)
    assert [r.aid for r in records if isinstance(r, ArgumentRecord)] == ["jsonl:a1"]


def test_tabs_and_line_breaks_in_a_jsonl_text_still_load(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, {**LINE, "conclusion": "C\tone\r\ntwo\n"})
    [record] = [r for r in jsonl.read([path]) if isinstance(r, ArgumentRecord)]
    assert record.conclusion.text == "C\tone\r\ntwo\n"


def test_malformed_json_on_a_line_is_placed_in_that_line(tmp_path: Path) -> None:
    """An own-data audit (session 29): `x.jsonl:2: ... malformed JSON: ...: line 2 column 1`
    named a second line inside file line 2 (the line's own line break)."""
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(LINE) + '\n{"id": "a2", "conclusion": "x", \n')
    [problem] = [r for r in jsonl.read([path]) if isinstance(r, Rejected)]
    assert (problem.where, problem.field) == (f"{path}:2", "<json>")
    assert problem.reason == (
        "malformed JSON: Expecting property name enclosed in double quotes at character 34 of "
        "the line"
    )


def test_a_jsonl_key_the_format_does_not_have_is_a_warning(tmp_path: Path) -> None:
    """An own-data audit (session 29): a misspelt key was ignored without a word, so a premise
    with ``Stance`` loaded with stance unknown."""
    line = {**LINE, "topic": "t", "premises": [{"text": "P one", "Stance": "pro"}],
            "conclusion": {"text": "C one", "lang": "en"},
            "source": {"id": "s", "titel": "T"}}  # fmt: skip
    records = list(jsonl.read([_jsonl(tmp_path, line)]))
    [argument] = [r for r in records if isinstance(r, ArgumentRecord)]
    assert argument.stance == "unknown"
    left = [(r.kind, r.reason) for r in records if isinstance(r, LeftOut)]
    assert left == [
        ("unknown key 'topic'", "key 'topic' is not part of the format: ignored"),
        ("unknown key 'lang'", "key 'lang' in conclusion is not part of the format: ignored"),
        ("unknown key 'titel'", "key 'titel' in source is not part of the format: ignored"),
        ("unknown key 'Stance'", "key 'Stance' in premises[0] is not part of the format: ignored"),
    ]
    assert not [r for r in jsonl.read([_jsonl(tmp_path, LINE)]) if isinstance(r, LeftOut)]
