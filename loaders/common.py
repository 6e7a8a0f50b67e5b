"""Small helpers every loader shares: UTF-8 input and stance spellings."""

from __future__ import annotations

import csv
import io
import json
import os
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from argkb.errors import LoadError
from argkb.loaders.records import Rejected, Stance, StanceLabel

STANCE_WORDS: dict[str, Stance] = {
    "pro": "pro", "con": "con", "+1": "pro", "1": "pro", "-1": "con",
    "support": "pro", "supports": "pro", "attack": "con", "attacks": "con",
}  # fmt: skip

_BOMS = {
    b"\xff\xfe\x00\x00": "UTF-32-LE",
    b"\x00\x00\xfe\xff": "UTF-32-BE",
    b"\xff\xfe": "UTF-16-LE",
    b"\xfe\xff": "UTF-16-BE",
}


def parse_stance(value: Any) -> Stance | None:
    """``pro``/``con`` for the spellings corpora use (PRO, Con, +1, -1, support...), else None."""
    return STANCE_WORDS.get(str(value).strip().lower()) if value is not None else None


def parse_stance_label(value: Any) -> StanceLabel | None:
    """Like :func:`parse_stance`, but a missing stance (``None``, ``""``, ``unknown``) is
    ``unknown`` rather than an error; None only for a value that is no stance at all."""
    if value is None or str(value).strip().lower() in ("", "unknown"):
        return "unknown"
    return parse_stance(value)


def input_files(paths: Sequence[str | os.PathLike[str]]) -> Iterator[Path]:
    """``paths`` as files, in order; one that is no file raises :class:`LoadError` when reached."""
    for raw in paths:
        path = Path(raw)
        if not path.is_file():
            raise LoadError(str(path), "<file>", "no such file")
        yield path


def open_utf8(path: Path) -> BinaryIO:
    """Open ``path`` for binary reading past a UTF-8 BOM; refuse UTF-16/32 with a clear error."""
    handle = path.open("rb")
    head = handle.read(4)
    for bom, name in _BOMS.items():
        if head.startswith(bom):
            handle.close()
            raise LoadError(str(path), "<encoding>", f"file is {name}; convert it to UTF-8")
    handle.seek(3 if head.startswith(b"\xef\xbb\xbf") else 0)
    return handle


def csv_table(
    path: Path, required: Sequence[str]
) -> Iterator[tuple[str, dict[str, int], list[str]]]:
    """``(where, column index by name, row)`` per non-blank CSV row, streamed.

    ``where`` is ``file:line N``, the row's first physical line (quoted fields may span lines).
    Header names are stripped; a repeated name maps to its first column. A missing file or
    required column, bytes that are not UTF-8 and unparsable CSV raise :class:`LoadError`.
    """
    if not path.is_file():
        raise LoadError(str(path), "<file>", "no such file")
    with open_utf8(path) as raw, io.TextIOWrapper(raw, encoding="utf-8", newline="") as text:
        reader = csv.reader(text)
        try:
            header = [name.strip() for name in next(reader, [])]
            columns: dict[str, int] = {}
            for index, name in enumerate(header):
                columns.setdefault(name, index)
            missing = [name for name in required if name not in columns]
            if missing:
                raise LoadError(str(path), missing[0], f"missing column (header: {header})")
            line = reader.line_num
            for row in reader:
                start, line = line + 1, reader.line_num
                if any(value.strip() for value in row):
                    yield f"{path.name}:line {start}", columns, row
        except UnicodeDecodeError as err:
            raise LoadError(str(path), "<encoding>", f"not UTF-8: {err}") from err
        except csv.Error as err:
            raise LoadError(f"{path.name}:line {reader.line_num}", "<csv>", str(err)) from err


def csv_rows(path: Path, required: Sequence[str]) -> Iterator[tuple[str, dict[str, str]]]:
    """``(where, {column: value})`` per non-blank CSV row (see :func:`csv_table`)."""
    for where, columns, row in csv_table(path, required):
        yield where, {name: row[i] if i < len(row) else "" for name, i in columns.items()}


def required_fields(
    where: str, row: Mapping[str, str], names: Sequence[str]
) -> list[str] | Rejected:
    """The stripped values of ``names``, or a Rejected for the first one missing or empty."""
    values = []
    for name in names:
        value = row.get(name, "")
        if not value.strip():
            return Rejected(where, name, "missing or empty")
        values.append(value.strip())
    return values


def json_lines(path: Path) -> Iterator[tuple[str, Any]]:
    """``(where, object)`` per non-blank line of a JSONL file; a line that is not UTF-8 or not
    JSON comes as ``(where, Rejected)`` and the next line is read. ``where`` is ``file:line``."""
    with open_utf8(path) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            where = f"{path.name}:{number}"
            try:
                yield where, json.loads(line.decode("utf-8"))
            except UnicodeDecodeError as err:
                yield where, Rejected(where, "<encoding>", f"not UTF-8: {err}")
            except json.JSONDecodeError as err:
                yield where, Rejected(where, "<json>", f"malformed JSON: {err}")


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
