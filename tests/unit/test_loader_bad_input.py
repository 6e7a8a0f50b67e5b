"""Bad input to the JSON loaders (issue 13): every bad record becomes one :class:`Rejected`
naming file, record and field, and the good records around it still come."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from argkb.loaders import argsme, jsonl
from argkb.loaders.common import MAX_JSON_DEPTH, max_json_depth
from argkb.loaders.records import ArgumentRecord, Rejected

GOOD = {"id": "a1", "conclusion": "C one", "premises": [{"text": "P one", "stance": "PRO"}]}


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _aids(records: list[Any]) -> list[str]:
    return [r.aid for r in records if isinstance(r, ArgumentRecord)]


def _rejected(records: list[Any]) -> list[Rejected]:
    return [r for r in records if isinstance(r, Rejected)]


def test_deeply_nested_value_in_argsme_dump_is_one_rejected_record(tmp_path: Path) -> None:
    deep = json.dumps({**GOOD, "id": "a2"})[:-1] + ', "extra": ' + _nested(3000) + "}"
    last = json.dumps({**GOOD, "id": "a3"})
    path = tmp_path / "deep.json"
    path.write_text('{"arguments": [' + json.dumps(GOOD) + "," + deep + "," + last + "]}")
    records = list(argsme.read([path]))
    assert _aids(records) == ["argsme:a1", "argsme:a3"]
    [problem] = _rejected(records)
    assert problem.where == "deep.json#1"
    assert problem.field.startswith("extra.item.item")
    assert f"deeper than {MAX_JSON_DEPTH} levels" in problem.reason
    assert "\n" not in str(problem)


@pytest.mark.parametrize("module", [argsme, jsonl])
def test_deeply_nested_jsonl_line_is_rejected_not_a_recursion_error(
    tmp_path: Path, module: Any
) -> None:
    path = tmp_path / "deep.jsonl"
    lines = [
        json.dumps(GOOD),
        '{"id": "a2", "conclusion": "C", "premises": ' + _nested(100_000) + "}",
        json.dumps({**GOOD, "id": "a3"}),
    ]
    path.write_text("\n".join(lines) + "\n")
    records = list(module.read([path]))
    assert _aids(records) == [f"{module.FORMAT}:a1", f"{module.FORMAT}:a3"]
    [problem] = _rejected(records)
    assert problem.where.startswith("deep.jsonl:2")
    assert problem.field.startswith("premises.item")


def test_a_jsonl_line_over_the_size_limit_is_rejected_and_read_past(tmp_path: Path) -> None:
    from argkb.loaders.common import json_lines

    path = tmp_path / "big.jsonl"
    big = json.dumps({**GOOD, "id": "a2", "conclusion": "x" * 5000})
    path.write_text("\n".join([json.dumps(GOOD), big, json.dumps({**GOOD, "id": "a3"})]) + "\n")
    rows = list(json_lines(path, max_bytes=1000))
    assert [where for where, _ in rows] == ["big.jsonl:1", "big.jsonl:2", "big.jsonl:3"]
    assert isinstance(rows[1][1], Rejected) and "longer than 1,000 bytes" in rows[1][1].reason
    assert rows[2][1]["id"] == "a3"


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


@pytest.mark.parametrize(
    "value",
    [
        {"a": "[[[[\\", "b": [['\\"]]]]']]},
        {"t": 'quote " and [ { inside', "n": [[{"x": ["]"]}]]},
        [["\\\\", ["\\"]], {"k": '\\\\\\"'}],
        {"deep": json.loads(_nested(70))},
    ],
)
@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 1 << 24])
def test_max_json_depth_ignores_brackets_in_strings(value: Any, chunk: int) -> None:
    text = json.dumps(value).encode()
    assert max_json_depth(io.BytesIO(text), chunk=chunk) == _depth(value)
