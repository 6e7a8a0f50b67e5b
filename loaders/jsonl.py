"""Generic JSONL: users' own arguments, one JSON object per line (see docs/formats.md).

Each line::

    {"id": "a1",                                   # optional; default: a hash of the content
     "conclusion": "We should abandon fossil fuels",  # or {"text", "id"}
     "premises": [{"text": "Burning them warms the planet", "stance": "pro", "id": "p7"}],
     "source": "debate-42"}          # optional; or {"id", "title", "url", "pagerank"}

``stance`` is ``pro``/``con`` (any case; ``+1``/``-1``, ``support``/``attack`` also accepted);
a premise without one (``stance`` missing, ``null`` or ``"unknown"``) is loaded with stance
``unknown``, for ``argkb stance`` to predict.
A unit with an ``id`` is identified by it (``id:<id>``), otherwise by its normalised text, so the
same sentence in two lines is one unit. One id names one text: a line that gives an id already
used for another text is rejected (the graph would keep only the first). Premises of several
stances in one line become one argument each (``<id>:pro``, ``<id>:con``, ``<id>:unknown``), as
in the args.me loader. Arguments are ``jsonl:<id>``.
A key the format does not have is ignored with a warning (:class:`LeftOut`, kind
``unknown key 'KEY'``): a misspelt ``stance`` would otherwise load as unknown without a word.
A text holding a control character other than tab, line feed and carriage return (a NUL, an
escape sequence) is rejected, naming the character.
A source object's ``title`` and ``url`` must be strings and its ``pagerank`` a number (not a
boolean); null is the same as absent; any other value rejects the line naming the field
(``source.pagerank``: ``a str, not a number``).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Generator, Iterator, Mapping, Sequence
from typing import Any

from argkb.loaders.common import (
    RecentSet,
    input_files,
    json_lines,
    parse_stance_label,
    type_problem,
)
from argkb.loaders.records import (
    ArgumentRecord,
    LeftOut,
    Record,
    Rejected,
    Scalar,
    SourceRecord,
    StanceLabel,
    UnitRef,
    control_character,
    text_key,
    unstorable,
)

FORMAT = "jsonl"


def read(paths: Sequence[str | os.PathLike[str]]) -> Iterator[Record | Rejected | LeftOut]:
    ids = _UnitIds()
    for path in input_files(paths):
        seen_sources = RecentSet()
        for where, obj in json_lines(path):
            if isinstance(obj, Rejected):
                yield obj
            else:
                yield from _records(obj, where, seen_sources, ids)


class _UnitIds:
    """The text each explicit unit id of a load named first (as its text key), so that a second,
    different text under the same id is rejected instead of silently dropped (the graph keeps one
    text per unit). Memory: one entry per unit with an explicit id."""

    def __init__(self) -> None:
        self._first: dict[str, tuple[str, str]] = {}

    def check(self, unit: UnitRef, where: str) -> str | None:
        """None if ``unit``'s id is new or names the same text; else why not."""
        if unit.key is None:
            return None
        text = text_key(unit.text)
        first = self._first.setdefault(unit.key, (text, where))
        if first[0] == text:
            return None
        return f"unit id {unit.key[3:]!r:.60} already names another text (at {first[1]})"


def _identifier(value: Any) -> str | None:
    """An id as text: a string or an integer; None for anything else (an object, a list,
    a boolean or a fractional number is no identifier)."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _unit(value: Any, where: str, field: str) -> UnitRef | Rejected:
    if isinstance(value, Mapping):
        text, unit_id = value.get("text"), value.get("id")
    else:
        text, unit_id = value, None
    if text is not None and not isinstance(text, str):  # a number, a list: say what it is
        return Rejected(where, field, type_problem(text, "text") or "not a text")
    if not isinstance(text, str) or not text.strip():
        return Rejected(where, field, "missing or empty text")
    if (control := control_character(text)) is not None:
        return Rejected(where, field, control)
    if unit_id in (None, ""):
        return UnitRef(text)
    key = _identifier(unit_id)
    if key is None:
        id_field = field.removesuffix(".text") + ".id"
        return Rejected(where, id_field, f"an id must be a string or integer, not {unit_id!r:.60}")
    return UnitRef(text, f"id:{key}")


def _records(
    obj: Any, where: str, seen_sources: RecentSet, ids: _UnitIds
) -> Iterator[ArgumentRecord | SourceRecord | Rejected | LeftOut]:
    if not isinstance(obj, Mapping):
        yield Rejected(where, "<record>", f"expected an object, got {type(obj).__name__}")
        return
    conclusion = _unit(obj.get("conclusion"), where, "conclusion")
    if isinstance(conclusion, Rejected):
        yield conclusion
        return
    raw_premises = obj.get("premises")
    if raw_premises is not None and (problem := type_problem(raw_premises, "list")) is not None:
        yield Rejected(where, "premises", problem)  # a text, an object: say what it is
        return
    if not raw_premises:
        yield Rejected(where, "premises", "missing or empty list")
        return
    groups: dict[StanceLabel, list[UnitRef]] = {}
    positions: dict[StanceLabel, list[int]] = {}
    fields: list[tuple[str, UnitRef]] = [("conclusion.id", conclusion)]
    for position, premise in enumerate(raw_premises):
        field = f"premises[{position}]"
        if not isinstance(premise, Mapping):
            yield Rejected(where, field, "expected an object with text and stance")
            return
        unit = _unit(premise, where, f"{field}.text")
        if isinstance(unit, Rejected):
            yield unit
            return
        stance = parse_stance_label(premise.get("stance"))
        if stance is None:
            yield Rejected(where, f"{field}.stance", f"unknown stance {premise.get('stance')!r}")
            return
        groups.setdefault(stance, []).append(unit)
        positions.setdefault(stance, []).append(position)
        fields.append((f"{field}.id", unit))
    for name, unit in fields:
        problem = ids.check(unit, where)
        if problem is not None:
            yield Rejected(where, name, problem)
            return
    base = obj.get("id")
    if base not in (None, "") and _identifier(base) is None:
        yield Rejected(where, "id", f"an id must be a string or integer, not {base!r:.60}")
        return
    source = yield from _source(obj.get("source"), where, seen_sources)
    if isinstance(source, Rejected):
        yield source
        return
    if base in (None, ""):
        content = "|".join([conclusion.uid, *sorted(u.uid for g in groups.values() for u in g)])
        # explicit ids are any text, lone surrogates included (the ingest rejects those later)
        data = content.encode("utf-8", "surrogatepass")
        base = hashlib.blake2b(data, digest_size=10).hexdigest()
    for stance, units in groups.items():
        aid = f"jsonl:{base}" if len(groups) == 1 else f"jsonl:{base}:{stance}"
        names = ("conclusion", *(f"premises[{i}]" for i in positions[stance]))
        yield ArgumentRecord(aid, conclusion, tuple(units), stance, source, (), where, names)
    yield from _unknown_keys(obj, where)


_KEYS = {
    "": {"id", "conclusion", "premises", "source"},
    "conclusion": {"text", "id"},
    "premises[]": {"text", "stance", "id"},
    "source": {"id", "title", "url", "pagerank"},
}


def _unknown_keys(obj: Mapping[str, Any], where: str) -> Iterator[LeftOut]:
    """A key the format does not have (a typo: ``Stance``, ``premise``) is ignored, with a
    warning: a misspelt stance would otherwise load as unknown without a word."""
    parts: list[tuple[str, str, Any]] = [("", "", obj)]
    for name in ("conclusion", "source"):
        parts.append((name, name, obj.get(name)))
    parts += [("premises[]", f"premises[{i}]", p) for i, p in enumerate(obj.get("premises", []))]
    for kind, field, value in parts:
        if not isinstance(value, Mapping):
            continue
        for key in value:
            if key not in _KEYS[kind]:
                at = f" in {field}" if field else ""
                reason = f"key {str(key)!r:.60}{at} is not part of the format: ignored"
                yield LeftOut(where, f"unknown key {str(key)!r:.40}", reason)


def _source(
    value: Any, where: str, seen: RecentSet
) -> Generator[SourceRecord, None, str | Rejected | None]:
    """Yield the source record the first time a source is seen; return its sid (or None, or
    why the source is unusable)."""
    if value in (None, ""):
        return None
    if isinstance(value, Mapping):
        props: list[tuple[str, Scalar]] = []
        for key in ("title", "url", "pagerank"):
            prop = value.get(key)
            if prop is None:  # absent or null: not given
                continue
            problem = type_problem(prop, "number" if key == "pagerank" else "text")
            problem = problem or unstorable(prop)
            if problem is not None:
                return Rejected(where, f"source.{key}", problem)
            props.append((key, prop))
        # the first given: an id 0 is an id (``or`` took the title instead, another source)
        given = (value.get(key) for key in ("id", "title", "url"))
        name = next((v for v in given if v not in (None, "")), None)
        if _identifier(name) is None:
            return Rejected(where, "source.id", "a source needs an id, title or url (text)")
        sid = f"jsonl:{name}"
    elif _identifier(value) is not None:
        sid, props = f"jsonl:{value}", []
    else:
        return Rejected(where, "source", f"expected an id or an object, not {value!r:.60}")
    if seen.add(sid):
        yield SourceRecord(sid, tuple(props), where)
    return sid
