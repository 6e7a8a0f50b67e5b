"""``argkb.jsonout.to_json``: the JSON of the CLI's ``--json`` and of ``argkb serve``'s answers."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

from argkb.jsonout import to_json


@dataclasses.dataclass
class _Inner:
    name: str
    path: Path


@dataclasses.dataclass
class _Outer:
    score: float
    inner: _Inner
    items: list[_Inner]


def test_dataclasses_nest_and_the_rest_becomes_text() -> None:
    value = {"result": _Outer(0.5, _Inner("a", Path("/x/y")), [_Inner("b", Path("z"))])}
    assert json.loads(to_json(value)) == {
        "result": {
            "score": 0.5,
            "inner": {"name": "a", "path": "/x/y"},
            "items": [{"name": "b", "path": "z"}],
        }
    }


def test_indented_by_two_spaces_in_the_given_order() -> None:
    assert to_json({"b": 1, "a": [True, None]}) == (
        '{\n  "b": 1,\n  "a": [\n    true,\n    null\n  ]\n}'
    )


def test_a_dataclass_class_is_text_not_fields() -> None:
    assert to_json(_Inner) == json.dumps(str(_Inner))


def test_still_importable_from_the_cli() -> None:
    from argkb.cli import app

    assert app.to_json is to_json


def test_nan_and_infinity_are_null_so_strict_parsers_read_the_output() -> None:
    value = {
        "tau": math.nan,
        "rows": [(1.0, -math.inf)],
        "result": _Outer(math.inf, _Inner("a", Path("p")), []),
    }
    text = to_json(value)
    assert json.loads(text, parse_constant=_refuse) == {
        "tau": None,
        "rows": [[1.0, None]],
        "result": {"score": None, "inner": {"name": "a", "path": "p"}, "items": []},
    }


def _refuse(name: str) -> None:
    raise ValueError(f"{name} is not JSON")
