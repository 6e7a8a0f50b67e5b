"""args.me corpus (Ajjour et al. 2019): the JSON dump and its JSONL variant, streamed.

Format::

    {"arguments": [
      {"id": "c67482ba-...-00000-000",
       "conclusion": "Abortion should be legal",
       "premises": [{"text": "...", "stance": "PRO"}],
       "context": {"sourceId": "c67482ba-...", "sourceTitle": "...", "sourceUrl": "...",
                   "discussionTitle": "...", ...}},
      ...]}

The JSONL variant has one argument object per line. The real JSON file is about 1 GB, so it is
read with ``ijson`` (C backend, yajl2) item by item and never held in memory.

Mapping: one :class:`ArgumentRecord` per (argument, stance): an args.me argument's premises of one
stance form one inference (in the dump almost every argument has exactly one premise). Its aid is
``argsme:<id>``, or ``argsme:<id>:pro`` / ``:con`` when one args.me argument holds premises of both
stances. ``context.sourceId`` becomes the source ``argsme:<sourceId>`` (a debate), with title, URL
and discussion title as properties.

Bad input: a record missing a field, with an empty text or an unknown stance, or with a
``context`` that is no object, a ``sourceId`` that is neither a string nor an integer, or a
``sourceTitle``/``sourceUrl``/``discussionTitle`` that is no string (``context.sourceId``:
``a dict, not an id``; a missing, null or empty one is not given) becomes a
:class:`Rejected` naming file, record and field; the next record is read. Malformed JSON in the
dump ends that file (the parser cannot resynchronise) with one :class:`Rejected` that says after
which record it happened; in JSONL only the bad line is lost. A value nested deeper than
:data:`~argkb.loaders.common.MAX_JSON_DEPTH` levels rejects its record (the field is named) and
is never built: a pre-scan finds such a file and sends it through a depth-capped parser. The
same pre-scan finds a ``\\u`` escape of a lone surrogate (``\\ud800``, ``\\udc80``), which
yajl would read as ``?`` or stop at: such a file goes through ijson's Python backend, which
keeps it, and the ingest rejects that record naming its field (``not UTF-8 text (a lone
surrogate)``), as for JSONL. Files must be UTF-8 (a UTF-8 BOM is accepted); UTF-16/32 files
raise :class:`~argkb.errors.LoadError` naming the encoding; other bytes that are no UTF-8 end
the dump with one :class:`Rejected` (field ``<encoding>``).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from argkb.loaders.common import (
    JsonGuard,
    RecentSet,
    input_files,
    json_error,
    json_lines,
    open_utf8,
    parse_stance,
    scan_json,
    too_deep_message,
    type_problem,
)
from argkb.loaders.records import (
    ArgumentRecord,
    Record,
    Rejected,
    Scalar,
    SourceRecord,
    Stance,
    UnitRef,
)

log = logging.getLogger(__name__)

FORMAT = "argsme"


def read(paths: Sequence[str | os.PathLike[str]]) -> Iterator[Record | Rejected]:
    """Records of args.me files: ``.json`` dumps or ``.jsonl``/``.ndjson`` (one argument a line)."""
    for path in input_files(paths):
        if path.suffix.lower() in (".jsonl", ".ndjson"):
            yield from _read_jsonl(path)
        else:
            yield from _read_dump(path)


def _read_dump(path: Path) -> Iterator[Record | Rejected]:
    import ijson

    seen_sources = RecentSet()
    index = -1
    guard = JsonGuard()
    with open_utf8(path) as handle:
        start = handle.tell()
        if _blank(handle):  # yajl's "parse error: premature EOF" does not say it
            yield Rejected(str(path), "<file>", "no records: the file is empty")
            return
        handle.seek(start)
        scan = scan_json(handle)
        handle.seek(start)
        # yajl reads a lone surrogate escape as "?" (or as bytes that are no UTF-8): ijson's
        # Python backend keeps it, so the ingest rejects that record as it does in JSONL
        exact = scan.lone_surrogate
        while True:
            done = index  # the records read before this pass
            try:
                for index, obj in _dump_items(handle, done, guard, scan.depth, exact=exact):
                    deep = guard.take("arguments.item")
                    if deep is not None:
                        yield Rejected(f"{path}#{index}", deep, too_deep_message())
                        continue
                    yield from argument_records(obj, f"{path}#{index}", seen_sources)
                break
            except (ijson.JSONError, UnicodeDecodeError) as err:
                if not exact and "integer overflow" in str(err):
                    # yajl stops at an integer past 64 bits, which the Python backend reads
                    # (the ingest then rejects its record): read on from the next record
                    log.info("%s: an integer past 64 bits after record %d: the dump is read "
                             "again, from the start, by ijson's slower exact backend", path,
                             index)  # fmt: skip
                    exact = True
                    handle.seek(start)
                    continue
                yield _dump_error(path, err, index)
                break
    if index < 0:
        yield Rejected(str(path), "arguments", "no arguments found (expected {'arguments': [...]})")


def _blank(handle: BinaryIO) -> bool:
    """Whether the rest of ``handle`` is empty or only whitespace (read until it is not)."""
    while chunk := handle.read(1 << 16):
        if chunk.strip():
            return False
    return True


def _dump_items(
    handle: BinaryIO, done: int, guard: JsonGuard, depth: int, *, exact: bool
) -> Iterator[tuple[int, Any]]:
    """``(index, argument object)`` of a dump from ``handle``'s position, after record ``done``;
    ``exact``: ijson's Python backend rather than yajl. A file without too deep values, lone
    surrogates or integers past 64 bits (every real one) takes the fast path."""
    import ijson

    backend = ijson.get_backend("python") if exact else ijson
    items = (
        ijson.items(guard.events(backend.basic_parse(handle, use_float=True)), "arguments.item")
        if depth > guard.max_depth
        else backend.items(handle, "arguments.item", use_float=True)
    )
    for index, obj in enumerate(items):
        if index > done:
            yield index, obj
        else:  # read before the backend changed: its too deep values are said already
            guard.take()


def _dump_error(path: Path, err: Exception, index: int) -> Rejected:
    """The rejection that ends a dump ijson cannot read on, after record ``index``."""
    after = f"after record {index}" if index >= 0 else "before the first record"
    message = json_error(err)
    if isinstance(err, UnicodeDecodeError) or "UTF8" in message or "utf-8" in message:
        # bytes in the file that are no UTF-8 (an escape is read on: see _read_dump)
        return Rejected(str(path), "<encoding>", f"not UTF-8 {after}; the rest of the file "
                                                 "cannot be read")  # fmt: skip
    if index < 0:
        reason = f'not args.me JSON (expected {{"arguments": [...]}}): {message}'
        return Rejected(str(path), "<json>", reason)
    reason = f"malformed JSON {after}: {message}; the rest of the file cannot be read"
    return Rejected(str(path), "<json>", reason)


def _read_jsonl(path: Path) -> Iterator[Record | Rejected]:
    seen_sources = RecentSet()
    for where, obj in json_lines(path):
        if isinstance(obj, Rejected):
            yield obj
        else:
            yield from argument_records(obj, where, seen_sources)


def argument_records(
    obj: Any, where: str, seen_sources: RecentSet
) -> Iterator[ArgumentRecord | SourceRecord | Rejected]:
    """The records of one args.me argument object (shared with the generic JSONL loader)."""
    if not isinstance(obj, Mapping):
        yield Rejected(where, "<record>", f"expected an object, got {type(obj).__name__}")
        return
    arg_id = obj.get("id")
    if (problem := _text_problem(arg_id)) is not None:
        yield Rejected(where, "id", problem)
        return
    where = f"{where} (id {arg_id})"
    conclusion = obj.get("conclusion")
    if (problem := _text_problem(conclusion)) is not None:
        yield Rejected(where, "conclusion", problem)
        return
    assert isinstance(conclusion, str)  # what _text_problem checked
    groups = _premises_by_stance(obj.get("premises"), where)
    if isinstance(groups, Rejected):
        yield groups
        return
    source = _source(obj.get("context"), where)
    if isinstance(source, Rejected):
        yield source
        return
    if source is not None and seen_sources.add(source.sid):
        yield source
    for stance, texts in groups.items():
        aid = f"argsme:{arg_id}" if len(groups) == 1 else f"argsme:{arg_id}:{stance}"
        premises = tuple(UnitRef(text) for _, text in texts)
        sid = None if source is None else source.sid
        names = ("conclusion", *(f"premises[{i}]" for i, _ in texts))  # the input's indexes
        yield ArgumentRecord(aid, UnitRef(conclusion), premises, stance, sid, (), where, names)


_SOURCE_PROPERTIES = (
    ("title", "sourceTitle"),
    ("url", "sourceUrl"),
    ("discussion", "discussionTitle"),
)


def _source(context: Any, where: str) -> SourceRecord | Rejected | None:
    """The source ``context.sourceId`` names (None without one), or why ``context`` is unusable:
    not an object, a ``sourceId`` that is no id, or a title or URL that is no text. A missing,
    null or empty value is not given."""
    if context is None:
        return None
    problem = type_problem(context, "object")
    if problem is not None:
        return Rejected(where, "context", problem)
    source_id = context.get("sourceId")
    if source_id in (None, ""):
        return None
    problem = type_problem(source_id, "id")
    if problem is not None:
        return Rejected(where, "context.sourceId", problem)
    props: list[tuple[str, Scalar]] = []
    for key, name in _SOURCE_PROPERTIES:
        value = context.get(name)
        if value in (None, ""):
            continue
        problem = type_problem(value, "text")
        if problem is not None:
            return Rejected(where, f"context.{name}", problem)
        props.append((key, value))
    return SourceRecord(f"argsme:{source_id}", tuple(props), where)


def _text_problem(value: Any) -> str | None:
    """Why ``value`` is no usable text: ``missing or empty``, or its JSON type (``an int, not a
    text``); None for a text with a non-blank character."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return "missing or empty"
    return type_problem(value, "text")


def _premises_by_stance(
    premises: Any, where: str
) -> dict[Stance, list[tuple[int, str]]] | Rejected:
    """The premises' ``(index, text)`` by stance, or why one is unusable."""
    if premises is not None and (problem := type_problem(premises, "list")) is not None:
        return Rejected(where, "premises", problem)
    if not premises:
        return Rejected(where, "premises", "missing or empty list")
    groups: dict[Stance, list[tuple[int, str]]] = {}
    for position, premise in enumerate(premises):
        field = f"premises[{position}]"
        if not isinstance(premise, Mapping):
            return Rejected(where, field, "expected an object with text and stance")
        text = premise.get("text")
        if (problem := _text_problem(text)) is not None:
            return Rejected(where, f"{field}.text", problem)
        assert isinstance(text, str)
        stance = parse_stance(premise.get("stance"))
        if stance is None:
            return Rejected(where, f"{field}.stance", f"unknown stance {premise.get('stance')!r}")
        groups.setdefault(stance, []).append((position, text))
    return groups
