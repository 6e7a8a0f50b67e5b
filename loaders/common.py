"""What the loaders share: input files and UTF-8 decoding, stance spellings, field checks, and
guarded readers of CSV and JSON.

Input: :func:`input_files`, :func:`topics_and_arguments`, :func:`open_utf8` (past a UTF-8 BOM;
UTF-16/32 refused with a message); stance spellings (:func:`parse_stance`,
:func:`parse_stance_label`); field and type checks (:func:`type_problem`,
:func:`required_fields`); CSV (:func:`csv_table`, :func:`csv_rows`, with field-count checks);
JSON with guards against deep nesting, over-long lines and numbers, and lone surrogates
(:class:`JsonGuard`, :func:`scan_json`, :func:`json_lines`); and :class:`RecentSet`, a bounded
memory that lets a loader emit each source once.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sys
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO, Literal, NamedTuple

from argkb.errors import LoadError
from argkb.loaders.records import Rejected, Stance, StanceLabel

STANCE_WORDS: dict[str, Stance] = {
    "pro": "pro", "con": "con", "+1": "pro", "1": "pro", "-1": "con",
    "support": "pro", "supports": "pro", "attack": "con", "attacks": "con",
}  # fmt: skip

MAX_JSON_DEPTH = 64  # nesting levels of any JSON value a loader builds (args.me needs 5)
MAX_JSON_LINE = 64 * 2**20  # bytes of one JSONL line
_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_CSV_FIELD = 2**31 - 1  # characters of one CSV field (the largest that csv accepts everywhere)
TOO_DEEP = "\0argkb: nested too deeply"  # what stands for a container past MAX_JSON_DEPTH
# json.loads refuses an integer of more digits than sys.get_int_max_str_digits() with a
# ValueError that is no JSONDecodeError
TOO_LONG_NUMBER = f"a number of more than {sys.get_int_max_str_digits():,} digits"

_UTF8_BOM = b"\xef\xbb\xbf"
_BOMS = {
    b"\xff\xfe\x00\x00": "UTF-32-LE",
    b"\x00\x00\xfe\xff": "UTF-32-BE",
    b"\xff\xfe": "UTF-16-LE",
    b"\xfe\xff": "UTF-16-BE",
}

# which of the first four bytes are zero, for ASCII text in UTF-16/32 without a byte order mark
_UNMARKED: dict[tuple[bool, ...], str] = {
    (False, True, True, True): "UTF-32-LE",
    (True, True, True, False): "UTF-32-BE",
    (False, True, False, True): "UTF-16-LE",
    (True, False, True, False): "UTF-16-BE",
}


def type_problem(value: Any, want: Literal["text", "number", "id", "object", "list"]) -> str | None:
    """Why a JSON ``value`` is no ``want``, e.g. ``a dict, not a text``; None when it is one.
    A text is a string, a number an integer or float (not a boolean), an id a string or an
    integer, an object a JSON object, a list a JSON array."""
    if want == "object":
        ok = isinstance(value, Mapping)
    elif want == "list":
        ok = isinstance(value, list)
    elif want == "text":
        ok = isinstance(value, str)
    elif isinstance(value, bool):
        ok = False
    else:
        ok = isinstance(value, str | int) if want == "id" else isinstance(value, int | float)
    return None if ok else f"{_a(type(value).__name__)}, not {_a(want)}"


def _a(noun: str) -> str:
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


def parse_stance(value: Any) -> Stance | None:
    """``pro``/``con`` for the spellings corpora use (PRO, Con, +1, -1, support...), else None."""
    return STANCE_WORDS.get(str(value).strip().lower()) if value is not None else None


def parse_stance_label(value: Any) -> StanceLabel | None:
    """Like :func:`parse_stance`, but a missing stance (``None``, ``""``, ``unknown``) is
    ``unknown`` rather than an error; None only for a value that is no stance at all."""
    if value is None or str(value).strip().lower() in ("", "unknown"):
        return "unknown"
    return parse_stance(value)


def not_a_file(path: Path, *, or_directory: bool = False) -> str:
    """Why ``path``, which is no regular file, cannot be read: a broken symbolic link, a pipe
    or a device, a directory, or nothing there (``no such file``, ``... or directory``)."""
    if path.is_symlink() and not path.exists():
        return f"a broken symbolic link (to {os.readlink(path)})"
    if path.is_dir():
        return "a directory, not a file"
    if path.exists():
        return "not a regular file (a pipe or a device?)"
    return "no such file or directory" if or_directory else "no such file"


def input_files(paths: Sequence[str | os.PathLike[str]]) -> Iterator[Path]:
    """``paths`` as files, in order; one that is no file raises :class:`LoadError` when reached."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            empty = not any(path.iterdir())
            raise LoadError(
                str(path), "<file>",
                "empty directory: no file in it" if empty
                else "a directory: name the files in it (e.g. DIR/*.jsonl)",
            )  # fmt: skip
        if not path.is_file():
            raise LoadError(str(path), "<file>", not_a_file(path))
        yield path


def topics_and_arguments(paths: Sequence[str | os.PathLike[str]]) -> tuple[Path, Path]:
    """``(*topics.csv, *arguments.csv)`` among directories and files, by their name endings:
    exactly one of each (the Webis-ArgQuality-20 and SIGIR-19 layouts)."""
    topics_suffix, arguments_suffix = "topics.csv", "arguments.csv"
    found: dict[str, list[Path]] = {topics_suffix: [], arguments_suffix: []}
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for suffix, files in found.items():
                files.extend(sorted(path.glob(f"*{suffix}")))
        elif path.is_file():
            kind = next((s for s in found if path.name.endswith(s)), None)
            if kind is None:
                raise LoadError(str(path), "<file>", "expected *topics.csv or *arguments.csv")
            found[kind].append(path)
        else:
            raise LoadError(str(path), "<file>", not_a_file(path, or_directory=True))
    where = ", ".join(str(p) for p in paths)
    for suffix, files in found.items():
        if len(files) != 1:
            names = ", ".join(p.name for p in files) or "none"
            raise LoadError(where, "<file>", f"need exactly one *{suffix}; found {names}")
    return found[topics_suffix][0], found[arguments_suffix][0]


def bom_encoding(head: bytes) -> str | None:
    """The encoding a UTF-16/32 byte order mark at the start of ``head`` names, else the one
    its first four bytes show without a mark (where the zero bytes of ASCII text in UTF-16/32
    fall, as RFC 4627 section 3 detects JSON's encoding: ``{"`` in UTF-16-BE is the bytes
    ``00 7B 00 22``); None for UTF-8."""
    named = next((name for bom, name in _BOMS.items() if head.startswith(bom)), None)
    if named is not None or len(head) < 4 or 0 not in head[:4]:
        return named
    zeros = tuple(byte == 0 for byte in head[:4])
    unmarked = _UNMARKED.get(zeros)
    return None if unmarked is None else f"{unmarked} (without a byte order mark)"


def not_utf8_message(encoding: str) -> str:
    """The reason every loader gives for a file in ``encoding`` (from :func:`bom_encoding`)."""
    return f"file is {encoding}; convert it to UTF-8"


def open_utf8(path: Path) -> BinaryIO:
    """Open ``path`` for binary reading past a UTF-8 BOM; refuse UTF-16/32 with a clear error,
    and a file that cannot be read (permissions) as :class:`LoadError`."""
    try:
        handle = path.open("rb")
    except OSError as err:
        raise LoadError(str(path), "<file>", f"cannot read: {err.strerror or err}") from err
    head = handle.read(4)
    encoding = bom_encoding(head)
    if encoding is not None:
        handle.close()
        raise LoadError(str(path), "<encoding>", not_utf8_message(encoding))
    handle.seek(3 if head.startswith(b"\xef\xbb\xbf") else 0)
    return handle


def field_count(where: str, row: Sequence[str], header: Sequence[str]) -> Rejected | None:
    """A Rejected when ``row`` has more or fewer fields than ``header``: a value would be
    dropped or read from the wrong column (an unquoted comma, a lost field)."""
    width = len(header)
    if len(row) == width:
        return None
    if len(row) > width:
        detail = f"first extra value {row[width]!r:.60}"
    else:
        detail = f"nothing from column {header[len(row)]!r:.60} on"
    return Rejected(where, "<columns>", f"{len(row)} fields, the header has {width} ({detail})")


def csv_table(
    path: Path, required: Sequence[str], *, ragged: bool = False
) -> Iterator[tuple[str, dict[str, int], list[str] | Rejected]]:
    """``(where, column index by name, row)`` per non-blank CSV row, streamed.

    ``where`` is ``file:line N``, the row's first physical line (quoted fields may span lines).
    A row with more or fewer fields than the header comes as ``(where, columns, Rejected)``
    (:func:`field_count`), unless ``ragged`` (a format whose rows are known to be uneven and
    that reads them itself, as Webis-ArgRank-17's ``ground-truth-list.csv``). A row the CSV
    parser cannot read (a quote never closed) comes as a Rejected too, and ends the file: where
    the next row starts cannot be known, so an ``--on-error skip`` load keeps the rows before it.
    Header names are stripped; a repeated name maps to its first column. A missing or empty
    file, a missing required column and an unreadable header raise :class:`LoadError`. Bytes
    that are not UTF-8 come as lone surrogates (``surrogateescape``), so only the row that holds
    them is rejected (by :func:`required_fields`, or the ingest's check of every value). A field
    may be as long as :data:`MAX_CSV_FIELD`; ``--max-text`` decides which texts are too long.
    """
    if not path.is_file():
        raise LoadError(str(path), "<file>", not_a_file(path))
    if csv.field_size_limit() < MAX_CSV_FIELD:
        csv.field_size_limit(MAX_CSV_FIELD)  # the default, 131,072, is below --max-text
    with (
        open_utf8(path) as raw,
        io.TextIOWrapper(raw, encoding="utf-8", errors="surrogateescape", newline="") as text,
    ):
        # strict: an unterminated quote is an error, not a field that swallows the rest
        reader = csv.reader(text, strict=True)
        header, columns = _csv_header(path, reader, required)
        line = reader.line_num  # the last physical line of the last row read
        try:
            for row in reader:
                start, line = line + 1, reader.line_num
                if any(value.strip() for value in row):
                    where = f"{path}:line {start}"
                    bad = None if ragged else field_count(where, row, header)
                    yield where, columns, row if bad is None else bad
        except csv.Error as err:
            where = f"{path}:line {line + 1}"  # the row after the last one read
            yield where, columns, Rejected(where, "<csv>", _csv_problem(err))


def _csv_header(
    path: Path, reader: Iterator[list[str]], required: Sequence[str]
) -> tuple[list[str], dict[str, int]]:
    """The stripped header names and each name's first column; LoadError for an empty file, a
    header the parser cannot read or a required column missing."""
    try:
        first = next(reader, None)
    except csv.Error as err:
        raise LoadError(f"{path}:line 1", "<csv>", _csv_problem(err)) from err
    if first is None:
        raise LoadError(str(path), "<file>", "the file is empty: no header row")
    header = [name.strip() for name in first]
    columns: dict[str, int] = {}
    for index, name in enumerate(header):
        columns.setdefault(name, index)
    missing = [name for name in required if name not in columns]
    if missing:
        raise LoadError(str(path), missing[0], f"missing column (header: {header})")
    return header, columns


def _csv_problem(err: csv.Error) -> str:
    if "unexpected end of data" in str(err):
        return 'unterminated quoted field: a " opened in this row is never closed'
    return f"{err}; the rest of the file is not read"


def csv_rows(
    path: Path, required: Sequence[str]
) -> Iterator[tuple[str, dict[str, str] | Rejected]]:
    """``(where, {column: value})`` per non-blank CSV row, or ``(where, Rejected)`` for a row
    with more or fewer fields than the header (see :func:`csv_table`)."""
    for where, columns, row in csv_table(path, required):
        if isinstance(row, Rejected):
            yield where, row
        else:
            yield where, {name: row[i] for name, i in columns.items()}


def csv_integer(where: str, name: str, value: str) -> int | Rejected:
    """The non-negative integer of CSV field ``name``, or a Rejected naming the column: not
    decimal digits, or past Neo4j's 64 bits (the ingest would name the property instead)."""
    try:
        if value.isdecimal():
            number = int(value)
            if number < 2**63:
                return number
            return Rejected(where, name, f"integer of {number.bit_length()} bits, beyond 64 bits")
    except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
        pass
    return Rejected(where, name, f"not a non-negative integer: {value!r:.60}")


NOT_UTF8 = "not UTF-8 (bytes that are no UTF-8 text)"
"""Why a CSV field holding bytes that are no UTF-8 (lone surrogates from csv_table) is rejected."""


def not_utf8_field(where: str, fields: Iterable[tuple[str, str]]) -> Rejected | None:
    """A Rejected for the first ``(column, value)`` with bytes that are no UTF-8, else None."""
    name = next((name for name, value in fields if _SURROGATE.search(value)), None)
    return None if name is None else Rejected(where, name, NOT_UTF8)


def required_fields(
    where: str, row: Mapping[str, str], names: Sequence[str]
) -> list[str] | Rejected:
    """The stripped values of ``names``, or a Rejected for the first one missing or empty, or
    holding bytes that are not UTF-8 (lone surrogates from :func:`csv_table`)."""
    values = []
    for name in names:
        value = row.get(name, "")
        if not value.strip():
            return Rejected(where, name, "missing or empty")
        if _SURROGATE.search(value):
            return Rejected(where, name, NOT_UTF8)
        values.append(value.strip())
    return values


class JsonGuard:
    """Turn ijson ``basic_parse`` events into ``parse`` events ``(prefix, event, value)`` with
    the nesting depth capped, so that no JSON value deeper than ``max_depth`` is ever built.

    ijson's own ``parse`` keeps one prefix string per open container, so its memory grows with
    the square of the depth (a 200 KB file of ``[`` needs tens of GB). Here a container that
    opens deeper than ``max_depth`` is read past (only a counter grows) and stands in the
    stream as the string :data:`TOO_DEEP`; its prefix is appended to :attr:`problems`.
    """

    def __init__(self, max_depth: int = MAX_JSON_DEPTH) -> None:
        self.max_depth = max_depth
        self.problems: list[str] = []

    def events(self, basic: Iterable[tuple[str, Any]]) -> Iterator[tuple[str, str, Any]]:
        path: list[str] = []
        events = iter(basic)
        for event, value in events:
            if event == "map_key":
                yield ".".join(path[:-1]), event, value
                path[-1] = value
            elif event in ("start_map", "start_array"):
                prefix = ".".join(path)
                if len(path) >= self.max_depth:
                    self.problems.append(prefix)
                    _skip_container(events)
                    yield prefix, "string", TOO_DEEP
                    continue
                yield prefix, event, value
                path.append("" if event == "start_map" else "item")
            elif event in ("end_map", "end_array"):
                path.pop()
                yield ".".join(path), event, value
            else:
                yield ".".join(path), event, value

    def take(self, under: str = "") -> str | None:
        """The first problem at or under prefix ``under`` (relative to it); clears them all."""
        found = [p for p in self.problems if p == under or p.startswith(under + ".") or not under]
        self.problems.clear()
        if not found:
            return None
        field = found[0][len(under) :].lstrip(".") if under else found[0]
        parts = field.split(".")
        return ".".join(parts[:3]) + (".(...)" if len(parts) > 3 else "") if field else "<record>"


_NOT_STRUCTURE = bytes(range(256)).translate(None, b'[]{}"')
_HIGH_ESCAPE = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}")
# a high surrogate escape with no low one after it, or a low one with no high one before it
_LONE_ESCAPE = re.compile(
    rb"\\u[dD](?:[89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD])[c-fC-F][0-9a-fA-F]{2})"
)
_ESCAPE_SPAN = 12  # bytes of the longest escape, a surrogate pair: \ud83d\ude00


class JsonScan(NamedTuple):
    """What :func:`scan_json` found in a JSON text before it is parsed."""

    depth: int
    """The deepest nesting of brackets outside strings."""
    lone_surrogate: bool
    """Whether a string holds a ``\\u`` escape of a lone UTF-16 surrogate (``\\ud800`` with no
    low surrogate after it, or a low one such as ``\\udc80`` with no high one before it)."""


def scan_json(handle: BinaryIO, chunk: int = 1 << 24) -> JsonScan:
    """The deepest nesting and whether a lone surrogate is escaped, in the JSON text of ``handle``.

    A scan at C speed (bytes methods, numpy and regular expressions; about a third of the
    time ijson takes to parse the same text) so that a file with no value deeper than
    :data:`MAX_JSON_DEPTH` and no lone surrogate is parsed by ijson's fast path, and only the
    rare other file by a slower exact one: yajl (ijson's C backend) nests without limit, reads
    a lone high surrogate as ``?`` and a lone low one as bytes that are no UTF-8.
    Escaped backslashes and quotes are removed first; then a bracket is outside a string when an
    even number of quotes precedes it. The text is read in blocks cut between two escapes (or
    where no escape is near), never within one or between the two halves of a surrogate pair.
    """
    import numpy as np

    sign = np.zeros(256, dtype=np.int64)
    sign[[ord("["), ord("{")]] = 1
    sign[[ord("]"), ord("}")]] = -1
    odd_quotes, depth, deepest, lone = 0, 0, 0, False
    buffer = b""
    while True:
        data = handle.read(chunk)
        buffer += data
        cut = _escape_boundary(buffer) if data else len(buffer)
        if cut <= 0 and data:
            continue  # no boundary yet (a short read, or a long run of escapes): read on
        block, buffer = buffer[:cut], buffer[cut:]
        lone = lone or _lone_surrogate_escape(block)
        reduced = block.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_STRUCTURE)
        if reduced:
            chars = np.frombuffer(reduced, dtype=np.uint8)
            quotes = np.cumsum(chars == ord('"')) + odd_quotes
            depths = np.cumsum(sign[chars] * ((quotes & 1) == 0)) + depth
            deepest = max(deepest, int(depths.max()))
            depth, odd_quotes = int(depths[-1]), int(quotes[-1]) & 1
        if not data:
            return JsonScan(deepest, lone)


def max_json_depth(handle: BinaryIO, chunk: int = 1 << 24) -> int:
    """The deepest nesting of brackets outside strings in the JSON text of ``handle``
    (:func:`scan_json`)."""
    return scan_json(handle, chunk).depth


def _escape_boundary(text: bytes) -> int:
    """A place near the end of ``text`` (JSON that starts outside any escape) where no escape
    and no surrogate pair is cut in two: one with no backslash in the 6 bytes before it, or
    the start of a run of backslashes (in JSON only an escape can follow the last backslash of
    a run) that is not the low half of a pair. 0 when there is none."""
    cut = len(text) - _ESCAPE_SPAN
    while cut > 0:
        last = text.rfind(b"\\", max(0, cut - 6), cut)
        if last < 0:
            return cut
        cut = last
        while cut > 0 and text[cut - 1] == 0x5C:
            cut -= 1
        if not _HIGH_ESCAPE.match(text, max(0, cut - 6), cut):
            return cut
        cut -= 6
    return 0


def _lone_surrogate_escape(block: bytes) -> bool:
    """Whether ``block`` (JSON text cut between escapes) escapes a lone surrogate, once every
    escaped backslash is blanked out (``\\\\ud800`` is a backslash and the text ``ud800``)."""
    if b"\\ud" not in block and b"\\uD" not in block:  # a fast test for most texts
        return False
    return _LONE_ESCAPE.search(block.replace(b"\\\\", b"..")) is not None


def _skip_container(events: Iterator[tuple[str, Any]]) -> None:
    """Consume the events of a container whose start event was just read."""
    depth = 1
    for event, _ in events:
        if event in ("start_map", "start_array"):
            depth += 1
        elif event in ("end_map", "end_array"):
            depth -= 1
            if depth == 0:
                return


def json_error(err: Exception) -> str:
    """A JSON parser's error on one line: yajl's (ijson's) messages span three lines, the
    message, the text around the error and a ``------^`` marker; the marker line goes. (The C
    backend gives the message as bytes, the Python one wraps the error it met.)"""
    cause = err.args[0] if len(err.args) == 1 else err
    if isinstance(cause, bytes):
        cause = cause.decode("utf-8", "backslashreplace")
    lines = [line.strip() for line in str(cause).splitlines()]
    kept = [line for line in lines if line and "(right here)" not in line]
    if len(kept) > 1:
        return f"{kept[0]} near {' '.join(kept[1:])!r}"
    return kept[0] if kept else type(err).__name__


def too_deep_message(max_depth: int = MAX_JSON_DEPTH) -> str:
    return f"JSON nested deeper than {max_depth} levels"


def _too_deep_field(line: bytes, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """The field of a JSON line at which nesting passes ``max_depth``, or None.

    A line with fewer brackets than the limit cannot be that deep and is not parsed twice.
    """
    if line.count(b"[") + line.count(b"{") <= max_depth:
        return None
    import ijson

    guard = JsonGuard(max_depth)
    try:
        for _ in guard.events(ijson.basic_parse(io.BytesIO(line), use_float=True)):
            if guard.problems:
                break
    except (ijson.JSONError, UnicodeDecodeError):
        pass  # malformed: json.loads says where
    return guard.take()


def _lines(handle: BinaryIO, max_bytes: int) -> Iterator[bytes | None]:
    """The lines of ``handle``; a line longer than ``max_bytes`` is read past and comes as None."""
    while line := handle.readline(max_bytes + 1):
        if len(line) > max_bytes and not line.endswith(b"\n"):
            while (rest := handle.readline(1 << 20)) and not rest.endswith(b"\n"):
                pass
            yield None
        else:
            yield line


def json_lines(path: Path, max_bytes: int = MAX_JSON_LINE) -> Iterator[tuple[str, Any]]:
    """``(where, object)`` per non-blank line of a JSONL file; a line that is not UTF-8, not
    JSON, nested deeper than :data:`MAX_JSON_DEPTH`, with an integer of more digits than Python
    converts (:data:`TOO_LONG_NUMBER`) or longer than ``max_bytes`` comes as
    ``(where, Rejected)`` (nothing of it is built) and the next line is read; a file without
    any line is one ``Rejected`` too. ``where`` is ``file:line``."""
    empty = True
    with open_utf8(path) as handle:
        for number, line in enumerate(_lines(handle, max_bytes), start=1):
            where = f"{path}:{number}"
            if line is None:
                yield where, Rejected(where, "<record>", f"line longer than {max_bytes:,} bytes")
                continue
            # a line is a JSON text of its own, which may start with a BOM as the file may
            # (RFC 8259 8.1): files saved with one and joined with cat load as they do apart
            line = line.removeprefix(_UTF8_BOM)
            if not line.strip():
                continue
            empty = False
            deep = _too_deep_field(line)
            if deep is not None:
                yield where, Rejected(where, deep, too_deep_message())
                continue
            try:
                yield where, json.loads(line.decode("utf-8"))
            except UnicodeDecodeError as err:
                yield where, Rejected(where, "<encoding>", f"not UTF-8: {err}")
            except json.JSONDecodeError as err:
                yield where, Rejected(where, "<json>", _malformed(err))
            except ValueError:  # the one other error of json.loads: an integer Python refuses
                yield where, Rejected(where, "<json>", TOO_LONG_NUMBER)
            except RecursionError:
                yield where, Rejected(where, "<json>", too_deep_message())
    if empty:  # a load of nothing must not look like a complete corpus
        yield str(path), Rejected(str(path), "<file>", "no records: the file is empty")


def _malformed(err: json.JSONDecodeError) -> str:
    """Why a line is no JSON, at a character of the line (not json's "line 2 column 1"); a
    byte order mark inside a line is named as such (json says "Expecting value" or "Extra
    data" there): the end of a file joined to the next one without a line break."""
    at = f"at character {err.pos + 1:,} of the line"
    if err.doc[err.pos : err.pos + 1] != "\ufeff":
        return f"malformed JSON: {err.msg} {at}"
    if err.msg == "Extra data":
        return (
            f"a byte order mark (U+FEFF) inside the file, {at}, after a whole JSON value: "
            "two files joined without a line break? put each record on a line of its own"
        )
    return f"a byte order mark (U+FEFF) inside the file, {at}, where JSON allows none"


class RecentSet:
    """A set that remembers only its ``capacity`` most recently added items.

    Loaders use it to emit each source record once without a set that grows with the corpus:
    a corpus lists a debate's arguments together, so a bounded memory catches nearly every
    repeat, and the rare repeat it misses is merged by the ingest anyway (MERGE on the key).
    """

    def __init__(self, capacity: int = 10_000) -> None:
        self.capacity = capacity
        self._items: OrderedDict[str, None] = OrderedDict()

    def add(self, item: str) -> bool:
        """Remember ``item``; True if it was not remembered before."""
        if item in self._items:
            self._items.move_to_end(item)
            return False
        self._items[item] = None
        if len(self._items) > self.capacity:
            self._items.popitem(last=False)
        return True
