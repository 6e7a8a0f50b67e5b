"""The fuzz tier's harness: hostile input strategies and the property every reader must keep.

The property (issue 13): a reader, given anything at all, yields records, :class:`Rejected` or
:class:`LeftOut` items, or raises argkb's own error with a one-line message; never any other
exception, never hangs (a watchdog interrupts it), never allocates without bound (tracemalloc
peak, capped relative to the input). The records it yields must also get through the ingest's
own checks (:func:`argkb.ingest.validate` and the row it builds) without an exception: a record
of the wrong shape is a reader bug even though the ingest would reject it.

Bounds: ``ARGKB_FUZZ_EXAMPLES`` sets the examples of every fuzz test (defaults are small, so the
tier takes well under a minute); ``HYPOTHESIS_PROFILE=default`` draws fresh random examples
instead of the derandomised ones of tests/conftest.py (docs/reliability.md has the long run).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import tracemalloc
import warnings
import zipfile
from collections.abc import Callable, Iterable, Iterator
from datetime import timedelta
from types import FrameType
from typing import Any

import ijson  # imported here so that its first import is not counted as the reader's memory
import numpy  # noqa: F401  (max_json_depth imports it on first use; same reason)
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from argkb.errors import ArgKBError
from argkb.ingest import _row, validate
from argkb.loaders.records import (
    ArgumentRecord,
    LeftOut,
    LinkRecord,
    Rejected,
    SourceRecord,
    UndercutRecord,
    UnitRecord,
)

del ijson

HANG_SECONDS = 20.0  # a reader still busy after this long on a few kB of input hangs
MEMORY_BASE = 40 * 2**20  # bytes any read may peak at (max_json_depth reads 16 MiB blocks)
MEMORY_PER_BYTE = 64  # and this much more per byte of input (JSON of small ints: about 20)
MAX_TEXT = 10_000  # --max-text for the ingest's checks (the default is larger; inputs are small)

RECORDS = (ArgumentRecord, UndercutRecord, UnitRecord, LinkRecord, SourceRecord)
ALLOWED = (*RECORDS, Rejected, LeftOut)

# every loader format with a fuzz test here; test_fuzz_loaders_cover checks it against FORMATS
FUZZED_FORMATS = ("argsme", "jsonl", "aif", "argkp", "argquality", "argrank", "sigir19")


def fuzz_settings(examples: int) -> settings:
    """``examples`` per test (or ``ARGKB_FUZZ_EXAMPLES``), a deadline per example far above what
    a healthy read of these small inputs takes (the watchdog catches real hangs)."""
    count = int(os.environ.get("ARGKB_FUZZ_EXAMPLES", examples))
    return settings(
        max_examples=count,
        deadline=timedelta(seconds=5),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


class Hang(Exception):
    """Raised into a reader that ran past :data:`HANG_SECONDS`."""


@contextlib.contextmanager
def watchdog(seconds: float = HANG_SECONDS) -> Iterator[None]:
    """Interrupt the block with :class:`Hang` after ``seconds`` (SIGALRM: main thread only)."""

    def fire(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"reader still running after {seconds:.0f} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def exercise(read: Callable[[], Iterable[object]], input_bytes: int) -> list[object]:
    """Run ``read()`` to the end under the property; the items it yielded (none if it raised an
    :class:`ArgKBError`). Any other exception, a hang or a memory peak past the cap fails."""
    items: list[object] = []
    tracemalloc.start()
    try:
        with watchdog():
            try:
                for item in read():
                    assert isinstance(item, ALLOWED), f"reader yielded a {type(item).__name__}"
                    items.append(item)
            except ArgKBError as err:
                message = str(err)
                assert message and "\n" not in message, f"not one line: {message!r}"
                message.encode("utf-8")  # printable as it is
                items = []
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    cap = MEMORY_BASE + MEMORY_PER_BYTE * input_bytes
    assert peak <= cap, f"peak {peak:,} bytes for {input_bytes:,} bytes of input (cap {cap:,})"
    if currently_in_test_context():  # what the examples reach: --hypothesis-show-statistics
        for kind in sorted({type(item).__name__ for item in items}) or ["nothing"]:
            event(f"yields {kind}")
    for item in items:
        if isinstance(item, RECORDS):
            if validate(item, MAX_TEXT) is None:
                _row(item)
        else:
            assert isinstance(item, Rejected | LeftOut)
            assert str(item)
    return items


# -- JSON with hostile tokens -------------------------------------------------------------------


class Raw(str):
    """JSON text that :func:`dumps` writes as it is (tokens json.dumps will not write)."""


def dumps(value: Any, *, ascii_only: bool = True) -> str:
    """``value`` as JSON text; :class:`Raw` parts verbatim; strings with lone surrogates as
    ``\\udXXX`` escapes (``ascii_only``) or as themselves (to be encoded with surrogatepass)."""
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, dict):
        inner = ",".join(f"{dumps(str(k), ascii_only=ascii_only)}:{dumps(v, ascii_only=ascii_only)}"
                         for k, v in value.items())  # fmt: skip
        return "{" + inner + "}"
    if isinstance(value, list):
        return "[" + ",".join(dumps(v, ascii_only=ascii_only) for v in value) + "]"
    return json.dumps(value, ensure_ascii=ascii_only)


def nested(depth: int, *, inner: str = "1") -> Raw:
    return Raw("[" * depth + inner + "]" * depth)


def nested_objects(depth: int) -> Raw:
    return Raw('{"a":' * depth + "1" + "}" * depth)


RAW_TOKENS = [
    "1" * 19, "9" * 20, "1" * 400, "1" * 4301, "-" + "7" * 5000, "1e999", "-1e999", "1E400",
    "5e-99999", "-0", "0.1e1", "NaN", "Infinity", "-Infinity", '"\\ud800"', '"\\udfff\\ud800x"',
    '"a\\u0000b"', '"\\uDBFF\\uDFFF"', "1" * 30 + ".5",
]  # fmt: skip
DEPTHS = [2, 30, 63, 64, 65, 66, 200, 3000]

LONE_SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
TEXT = st.one_of(
    st.text(st.characters(codec="utf-8"), max_size=30),
    st.text(st.characters(codec="utf-8"), max_size=30),
    st.text(st.characters(codec="utf-8") | LONE_SURROGATES, max_size=12),
)
GOOD_TEXT = st.sampled_from(
    ["We should abandon fossil fuels", "Fossil fuels harm us.", "cars pollute", "x", "Ünïcödé 😀"]
)

HOSTILE = st.one_of(
    st.sampled_from([Raw(t) for t in RAW_TOKENS]),
    st.sampled_from(DEPTHS).map(nested),
    st.sampled_from(DEPTHS).map(nested_objects),
    st.sampled_from(["", " ", "\n", "\x00", "\t\r\n", "\u2028", "\ufeff", "\"'", "..."]),
    TEXT,
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.just([]),
    st.just({}),
    st.lists(st.integers(0, 9), max_size=3),
    st.dictionaries(st.sampled_from(["text", "id", "a"]), st.integers(0, 3) | TEXT, max_size=2),
)
"""A value that is wrong almost anywhere: huge or non-finite numbers, deep nesting, lone
surrogates, empty or blank text, NUL, wrong types."""


def mostly(good: st.SearchStrategy[Any], *bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``good`` five times in six, else one of ``bad``: hostile enough to hit every check, valid
    enough that the examples get past the first one (records, not only rejections)."""
    # (one_of with ``good`` repeated does not weight it: hypothesis picks branches its own way)
    wrong = st.one_of(*bad)
    return st.sampled_from(range(6)).flatmap(lambda pick: good if pick < 5 else wrong)


TEXTISH = mostly(GOOD_TEXT, TEXT, HOSTILE)
"""A field that should be a text: usually one, often not."""

STANCE = mostly(
    st.sampled_from(["PRO", "CON", "pro", "con", "+1", "-1", "1", "support", "attack", "unknown"]),
    st.sampled_from(["", " Pro ", "neutral", None]),
    HOSTILE,
)


def json_value(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """Any JSON value with hostile leaves, nested a few levels."""
    return st.recursive(
        HOSTILE,
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(
                st.text(max_size=8) | st.sampled_from(["id", "text"]), inner, max_size=4
            )
        ),
        max_leaves=max_leaves,
    )


# -- query text ---------------------------------------------------------------------------------

SYNTAX = st.sampled_from(
    ["AND", "OR", "NOT", "TO", "&&", "||", "!", "+", "-", "(", ")", "{", "}", "[", "]", "^",
     '"', "~", "*", "?", ":", "\\", "/", "field:", "a~2", "te?t", "[a TO b]", "x^3", "\\\\",
     "*:*", "\u3000", "\x00", "\u2028"]
)  # fmt: skip
QUERY_WORD = st.one_of(
    st.text(max_size=12),
    st.text(st.characters(codec="utf-8") | LONE_SURROGATES, max_size=6),
    SYNTAX,
    st.lists(SYNTAX | st.text(max_size=3), max_size=4).map("".join),
)
QUERY = st.lists(QUERY_WORD, max_size=20).flatmap(
    lambda words: st.lists(st.sampled_from([" ", "\t", "\n", "\u00a0", "\u3000", ""]),
                           min_size=len(words), max_size=len(words))
    .map(lambda gaps: "".join(w + g for w, g in zip(words, gaps, strict=True)))
)  # fmt: skip


# -- byte-level damage --------------------------------------------------------------------------

BOMS = [b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"]


@st.composite
def damaged(draw: st.DrawFn, data: bytes) -> bytes:
    """``data``, sometimes damaged: truncated, with bytes inserted or overwritten, or a BOM."""
    kind = draw(st.sampled_from(["none"] * 8 + ["truncate", "insert", "overwrite", "bom"]))
    if kind == "none" or (not data and kind != "bom"):
        return data
    if kind == "bom":
        return draw(st.sampled_from(BOMS)) + data
    at = draw(st.integers(0, len(data) - 1))
    if kind == "truncate":
        return data[:at]
    junk = draw(st.binary(min_size=1, max_size=6) | st.sampled_from([b"\xed\xa0\x80", b"\x00"]))
    if kind == "insert":
        return data[:at] + junk + data[at:]
    return data[:at] + junk + data[at + len(junk) :]


def encode(text: str) -> bytes:
    """``text`` as UTF-8; lone surrogates (left by :func:`dumps` when not ``ascii_only``) become
    the bytes of their code points, which are not UTF-8."""
    return text.encode("utf-8", "surrogatepass")


@st.composite
def json_document(draw: st.DrawFn, value: st.SearchStrategy[Any]) -> bytes:
    """One drawn value as JSON bytes (escaped or raw non-ASCII), sometimes damaged."""
    ascii_only = draw(st.booleans())
    text = dumps(draw(value), ascii_only=ascii_only)
    return draw(damaged(encode(text)))


@st.composite
def json_lines(draw: st.DrawFn, line: st.SearchStrategy[Any], max_lines: int = 6) -> bytes:
    """JSONL: drawn values one a line, with blank, garbage and damaged lines among them."""
    ascii_only = draw(st.booleans())
    lines = []
    for value in draw(st.lists(line, max_size=max_lines)):
        text = encode(dumps(value, ascii_only=ascii_only))
        lines.append(draw(damaged(text)))
    if draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.binary(max_size=20)))
    newline = draw(st.sampled_from([b"\n", b"\r\n", b"\n\n"]))
    end = draw(st.sampled_from([newline, b""]))
    return newline.join(lines) + (end if lines else b"")


# -- CSV ----------------------------------------------------------------------------------------

HOSTILE_CELLS = [
    b"", b" ", b'"', b'"unterminated', b'a"b', b'""', b"\x00", b"\xed\xa0\x80", b"\xff\xfe",
    b"1" * 5000, b"0" * 4400 + b"1", "\u0663".encode(), "\uff11\uff12".encode(), b"1e999",
    b"nan", b"inf", b"-inf", b"-1", b"+1", b"1.5", b"-0", b"\r\n", b"a\nb", b"True", b"false",
    b"&quot;", b"&#99999999999;",
]  # fmt: skip


def hostile_cell() -> st.SearchStrategy[bytes]:
    """A CSV cell's raw bytes that are wrong for almost any column."""
    return st.one_of(
        st.sampled_from(HOSTILE_CELLS),
        TEXT.map(lambda t: t.encode("utf-8", "surrogatepass")),
        st.binary(max_size=8),
    )


def quoted(value: bytes) -> bytes:
    return b'"' + value.replace(b'"', b'""') + b'"'


@st.composite
def csv_file(
    draw: st.DrawFn,
    columns: tuple[str, ...],
    good: dict[str, st.SearchStrategy[bytes]],
    max_rows: int = 6,
) -> bytes:
    """A CSV file of ``columns`` (header sometimes shuffled, short, padded or duplicated) whose
    cells come from ``good`` per column or are hostile; rows of the wrong length; damage."""
    header = list(columns)
    change = draw(st.sampled_from(["none"] * 12 + ["drop", "extra", "dup", "spaces"]))
    if change == "drop" and header:
        header.pop(draw(st.integers(0, len(header) - 1)))
    elif change == "extra":
        header.append(draw(st.sampled_from(["extra", "", "Premise 9 text"])))
    elif change == "dup" and header:
        header.append(draw(st.sampled_from(header)))
    elif change == "spaces":
        header = [f" {name} " for name in header]
    lines = [b",".join(quoted(name.encode()) if "," in name else name.encode() for name in header)]
    fallback = st.sampled_from([b"x", b"1"])
    for _ in range(draw(st.integers(0, max_rows))):
        cells = [draw(good.get(name.strip(), fallback)) for name in header]
        # most rows are good; the others have one hostile cell, or several
        for _ in range(draw(st.sampled_from([0, 0, 0, 1, 1, 3]))):
            if cells:
                cells[draw(st.integers(0, len(cells) - 1))] = draw(hostile_cell())
        width = draw(st.sampled_from(["same"] * 8 + ["short", "long"]))
        if width == "short" and cells:
            cells = cells[: draw(st.integers(0, len(cells) - 1))]
        elif width == "long":
            cells += draw(st.lists(hostile_cell() | fallback, min_size=1, max_size=3))
        lines.append(b",".join(quoted(c) if draw(st.booleans()) else c for c in cells))
    newline = draw(st.sampled_from([b"\n", b"\r\n"]))
    return draw(damaged(newline.join(lines) + newline))


def ints(low: int = 0, high: int = 20) -> st.SearchStrategy[bytes]:
    return st.integers(low, high).map(lambda n: str(n).encode())


def words(*values: str) -> st.SearchStrategy[bytes]:
    return st.sampled_from([v.encode() for v in values])


def texts() -> st.SearchStrategy[bytes]:
    return GOOD_TEXT.map(str.encode)


# -- zip archives -------------------------------------------------------------------------------


def zip_bytes(members: list[tuple[str, bytes]], *, compress: bool = True) -> bytes:
    buffer = io.BytesIO()
    method = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(buffer, "w", method) as archive, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a duplicate name is hostile input too
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()
