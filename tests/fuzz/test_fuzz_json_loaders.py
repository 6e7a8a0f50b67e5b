"""Fuzz tier: the JSON readers (args.me dump and JSONL, generic JSONL) on hostile input.

Each test writes drawn bytes to a file and reads it through ``argkb.loaders.reader(fmt)``
under the property of :func:`fuzzing.exercise`. Inputs are small (a few kB; deep nesting up to
3,000 levels), so a regression to memory that grows with the square of the depth, or a
RecursionError, shows at once.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from fuzzing import (
    FUZZED_FORMATS,
    HOSTILE,
    STANCE,
    TEXTISH,
    exercise,
    fuzz_settings,
    json_document,
    json_lines,
    json_value,
    mostly,
)
from hypothesis import example, given
from hypothesis import strategies as st

from argkb.loaders import FORMATS, reader
from argkb.loaders.records import ArgumentRecord

pytestmark = pytest.mark.fuzz


def _read(fmt: str, name: str, data: bytes) -> list[object]:
    with tempfile.TemporaryDirectory(prefix="argkb-fuzz-") as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        return exercise(lambda: reader(fmt)([path]), len(data))


ARGSME_PREMISE = mostly(
    st.fixed_dictionaries({"text": TEXTISH, "stance": STANCE}),
    st.fixed_dictionaries({}, optional={"text": TEXTISH, "stance": STANCE, "x": HOSTILE}),
    HOSTILE,
)
ARGSME_CONTEXT = mostly(
    st.fixed_dictionaries(
        {},
        optional={
            name: TEXTISH for name in ("sourceId", "sourceTitle", "sourceUrl", "discussionTitle")
        },
    ),
    HOSTILE,
)
ARGSME_ARGUMENT = mostly(
    st.fixed_dictionaries(
        {"id": TEXTISH, "conclusion": TEXTISH, "premises": st.lists(ARGSME_PREMISE, max_size=4)},
        optional={"context": ARGSME_CONTEXT, "extra": HOSTILE},
    ),
    st.fixed_dictionaries({}, optional={"id": TEXTISH, "conclusion": TEXTISH, "premises": HOSTILE}),
    json_value(6),
)


def test_every_loader_format_has_a_fuzz_test() -> None:
    assert set(FORMATS) == set(FUZZED_FORMATS)


@fuzz_settings(60)
@given(
    json_document(
        mostly(
            st.fixed_dictionaries({"arguments": st.lists(ARGSME_ARGUMENT, max_size=5)}),
            st.fixed_dictionaries({"arguments": HOSTILE}),
            json_value(),
        )
    )
)
@example(b"")
@example(b'{"arguments": [' + b"[" * 100_000)
@example(b'{"arguments": [{"id": "a", "x": ' + b"1" * 5000 + b"}]}")
def test_argsme_dump(data: bytes) -> None:
    _read("argsme", "dump.json", data)


@fuzz_settings(60)
@given(json_lines(mostly(ARGSME_ARGUMENT, json_value())))
@example(b'{"id": ' + b"1" * 5000 + b', "conclusion": "c", "premises": [{"text": "p"}]}\n')
@example(b"[" * 50_000 + b"\n")
def test_argsme_jsonl(data: bytes) -> None:
    _read("argsme", "args.jsonl", data)


UNIT = mostly(
    TEXTISH,
    st.fixed_dictionaries({"text": TEXTISH}, optional={"id": TEXTISH}),
    st.fixed_dictionaries({"text": TEXTISH, "id": st.sampled_from(["u1", "u2", 7])}),
)
JSONL_SOURCE = mostly(
    TEXTISH,
    st.fixed_dictionaries(
        {}, optional={"id": TEXTISH, "title": TEXTISH, "url": TEXTISH, "pagerank": HOSTILE}
    ),
)
JSONL_ARGUMENT: st.SearchStrategy[Any] = st.fixed_dictionaries(
    {
        "conclusion": UNIT,
        "premises": st.lists(
            mostly(
                st.fixed_dictionaries(
                    {"text": TEXTISH}, optional={"stance": STANCE, "id": TEXTISH}
                ),
                st.fixed_dictionaries({"text": TEXTISH, "id": st.sampled_from(["u1", "u2", 7])}),
                HOSTILE,
            ),
            max_size=4,
        ),
    },
    optional={"id": TEXTISH, "source": JSONL_SOURCE},
)


BIG_PAGERANK = (
    b'{"conclusion": "c", "premises": [{"text": "p"}], "source": {"id": "s", "pagerank": 1%s}}\n'
    % (b"0" * 400)
)


@fuzz_settings(80)
@given(json_lines(mostly(JSONL_ARGUMENT, json_value())))
@example(b'{"conclusion": {"text": "c", "id": "\\ud800"}, "premises": [{"text": "p"}]}\n')
@example(BIG_PAGERANK)
@example(b'{"id": ' + b"1" * 5000 + b', "conclusion": "c", "premises": [{"text": "p"}]}\n')
@example(b"")
def test_generic_jsonl(data: bytes) -> None:
    _read("jsonl", "mine.jsonl", data)


def test_good_records_survive_the_harness(tmp_path: Path) -> None:
    """The harness passes the records through: a clean file gives its argument."""
    line = b'{"id": "a", "conclusion": "C", "premises": [{"text": "P", "stance": "pro"}]}\n'
    items = _read("jsonl", "ok.jsonl", line)
    assert [type(item) for item in items] == [ArgumentRecord]
