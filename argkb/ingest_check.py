"""The checks every corpus format shares before a record is written, and the record as the row
its Cypher batch takes (:func:`argkb.ingest.load_records`, which imports them from here)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from argkb.loaders.records import (
    ArgumentRecord,
    LinkRecord,
    Record,
    Rejected,
    SourceRecord,
    UndercutRecord,
    UnitRecord,
    UnitRef,
    control_character,
    unstorable,
)

# -- validation --------------------------------------------------------------------------------


def _check_values(where: str, values: Iterable[tuple[str, object]]) -> Rejected | None:
    """The first ``(field, value)`` that Neo4j cannot store as given, as a :class:`Rejected`."""
    for name, value in values:
        problem = unstorable(name) or unstorable(value)
        if problem is not None:
            return Rejected(where, name if isinstance(name, str) else "<key>", problem)
    return None


def _check_unit(unit: UnitRef, where: str, name: str, max_text: int) -> Rejected | None:
    if not isinstance(unit.text, str):
        return Rejected(where, name, f"a {type(unit.text).__name__}, not a text")
    if unit.key is None and not unit.text.strip():
        return Rejected(where, name, "empty text")
    if len(unit.text) > max_text:
        return Rejected(where, name, f"text of {len(unit.text):,} characters (limit {max_text:,})")
    if (control := control_character(unit.text)) is not None:
        return Rejected(where, name, control)
    return _check_values(where, ((name, unit.text), (f"{name} id", unit.key)))


def validate(record: Record, max_text: int) -> Rejected | None:
    """The checks every format shares: empty or enormous texts, control characters in a text
    (:func:`~argkb.loaders.records.control_character`), bad stance values, self-loops,
    and values Neo4j cannot store as given (:func:`~argkb.loaders.records.unstorable`: lone
    surrogates, integers past 64 bits, infinite numbers), which would otherwise fail a batch.

    Duplicate argument ids are checked per batch against Neo4j (:class:`_BatchWriter`), so the
    check costs no memory that grows with the corpus.
    """
    if isinstance(record, ArgumentRecord):
        where = record.where or record.aid
        problem = _check_values(where, (("id", record.aid), ("source", record.source)))
        problem = problem or _check_values(where, record.properties)
        conclusion = record.conclusion_field()
        problem = problem or _check_unit(record.conclusion, where, conclusion, max_text)
        for position, premise in enumerate(record.premises):
            field = record.premise_field(position)
            problem = problem or _check_unit(premise, where, field, max_text)
        if problem:
            return problem
        if not record.premises:
            return Rejected(where, "premises", "an argument needs at least one premise")
        if record.stance not in ("pro", "con", "unknown"):
            return Rejected(where, "stance", f"unknown stance {record.stance!r}")
        loop = next(
            (i for i, p in enumerate(record.premises) if p.uid == record.conclusion.uid), None
        )
        if loop is not None:
            field = record.premise_field(loop)
            return Rejected(where, field, "a premise equals the conclusion (self-loop)")
    elif isinstance(record, UndercutRecord):
        where = record.where or record.aid
        problem = _check_values(where, (("id", record.aid), ("source", record.source)))
        problem = problem or _check_values(where, (("target", record.target),))
        problem = problem or _check_values(where, record.properties)
        for position, premise in enumerate(record.premises):
            problem = problem or _check_unit(premise, where, f"premises[{position}]", max_text)
        if problem:
            return problem
        if not record.premises:
            return Rejected(where, "premises", "an argument needs at least one premise")
        if record.target == record.aid:
            return Rejected(where, "target", "an argument attacks itself")
    elif isinstance(record, UnitRecord):
        return (
            _check_unit(record.unit, record.where, record.field, max_text)
            or _check_values(record.where, (("source", record.source),))
            or _check_values(record.where, record.properties)
        )
    elif isinstance(record, LinkRecord):
        return (
            _check_unit(record.start, record.where, "start", max_text)
            or _check_unit(record.end, record.where, "end", max_text)
            or _check_values(record.where, record.properties)
        )
    elif isinstance(record, SourceRecord):
        where = record.where or str(record.sid)
        return _check_values(where, (("source id", record.sid), *record.properties))
    return None


# -- rows for the Cypher batches ---------------------------------------------------------------


def _unit_row(unit: UnitRef) -> dict[str, str]:
    return {"uid": unit.uid, "text": unit.text}


def _row(record: Record) -> tuple[str, dict[str, Any]]:
    if isinstance(record, ArgumentRecord):
        return "arguments", {
            "where": record.where or record.aid,
            "aid": record.aid,
            "stance": record.stance,
            "props": dict(record.properties),
            "source": record.source,
            "conclusion": _unit_row(record.conclusion),
            "premises": [_unit_row(p) for p in dict.fromkeys(record.premises)],
        }
    if isinstance(record, UndercutRecord):
        return "undercuts", {
            "where": record.where or record.aid,
            "aid": record.aid,
            "target": record.target,
            "props": dict(record.properties),
            "source": record.source,
            "premises": [_unit_row(p) for p in dict.fromkeys(record.premises)],
        }
    if isinstance(record, UnitRecord):
        return "units", {
            **_unit_row(record.unit),
            "labels": list(record.labels),
            "props": dict(record.properties),
            "source": record.source,
        }
    if isinstance(record, LinkRecord):
        return "links", {
            "start": _unit_row(record.start),
            "end": _unit_row(record.end),
            "type": record.type,
            "props": dict(record.properties),
        }
    return "sources", {"sid": record.sid, "props": dict(record.properties)}


def _checked_row(item: Record | Rejected, max_text: int) -> tuple[str, dict[str, Any]] | Rejected:
    """``item`` as a row for its batch, or why it is rejected. A record that breaks the checks
    themselves (a loader let through a value of a type it should not) is rejected too: one bad
    record never ends a load in skip mode."""
    if isinstance(item, Rejected):
        return item
    try:
        return validate(item, max_text) or _row(item)
    except Exception as err:  # whatever is wrong with one record
        where = getattr(item, "where", "") or "<record>"
        return Rejected(where, "<record>", f"unusable record ({type(err).__name__}: {err})")
