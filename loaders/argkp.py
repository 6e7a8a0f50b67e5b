"""IBM ArgKP-2021 (Bar-Haim et al., ACL 2020; KPA 2021 shared task): arguments and key points.

Format (UTF-8 CSV with a header row; one set of three files per split, ``train`` and ``dev``)::

    arguments_<split>.csv   arg_id,argument,topic,stance            stance 1 (pro) / -1 (con)
    key_points_<split>.csv  key_point_id,key_point,topic,stance
    labels_<split>.csv      arg_id,key_point_id,label               label 1 (match) / 0 (no match)

Ids look like ``arg_4_0`` / ``kp_4_0`` and are unique within a split. Stances are ``1`` and ``-1``
(``+1`` is accepted too); a stance relates the text to the topic (a debate motion).

Mapping:

- every topic of a split -> :class:`SourceRecord` ``argkp:<split>:<topic slug>`` (the first time the
  split mentions it), with the topic text and split as properties;
- every argument -> :class:`ArgumentRecord` ``argkp:<arg_id>``: the topic is the conclusion, the
  argument text the single premise, stance ``pro``/``con``, properties ``split`` and ``arg_id``;
- every key point -> :class:`UnitRecord` with the label ``KeyPoint`` and properties ``kp_id``,
  ``topic``, ``stance``, ``split``;
- every label row -> :class:`LinkRecord` ``MATCHES_KEY_POINT`` from the argument's premise unit to
  the key point unit, properties ``label`` (0/1), ``arg_id``, ``kp_id``. Labels are kept for
  evaluation: the arguments matching one key point form a natural ground-truth cluster.

Units are identified by their normalised text (:mod:`argkb.loaders.records`), so two arguments with
the same text (``arg_16_88`` and ``arg_16_89`` in train) share their premise unit.

Files are read arguments first, key points second and labels last; the labels need the texts of
the ids they name, so the loader keeps ``id -> text`` for one split at a time (a few thousand rows).

Bad input: a row with more or fewer fields than the header (field ``<columns>``), a missing or
empty field, an unknown stance or label, a duplicate id, or (in labels) an id that the split's
arguments or key points do not define, or a field that is not UTF-8, becomes a
:class:`Rejected` naming ``file:line N``; reading goes on. A missing file or
column, or a labels file without its arguments and key points raises
:class:`~argkb.errors.LoadError`.

:func:`load_split` gives the evaluation view of one split without Neo4j.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from argkb.errors import LoadError

from .common import csv_rows, not_a_file, required_fields
from .records import (
    ArgumentRecord,
    LinkRecord,
    Record,
    Rejected,
    SourceRecord,
    Stance,
    UnitRecord,
    UnitRef,
    normalise_text,
)

FORMAT = "argkp"

ARGUMENT_COLUMNS = ("arg_id", "argument", "topic", "stance")
KEY_POINT_COLUMNS = ("key_point_id", "key_point", "topic", "stance")
LABEL_COLUMNS = ("arg_id", "key_point_id", "label")
MATCH_TYPE = "MATCHES_KEY_POINT"

SPLIT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9.-]*")
"""What a split may be called (the ``<split>`` of ``labels_<split>.csv``)."""
_FILE_NAME = re.compile(rf"^(arguments|key_points|labels)_({SPLIT_NAME.pattern})\.csv$")
_SPLIT_ORDER = ("train", "dev", "test")
_STANCES: dict[str, Stance] = {"1": "pro", "+1": "pro", "-1": "con"}
_LABELS = {"0": 0, "1": 1}


@dataclass(frozen=True, slots=True)
class ArgKPArgument:
    """One argument row: its id, text, topic and stance towards the topic."""

    arg_id: str
    text: str
    topic: str
    stance: Stance
    split: str
    where: str = ""


@dataclass(frozen=True, slots=True)
class KeyPoint:
    """One key point row."""

    kp_id: str
    text: str
    topic: str
    stance: Stance
    split: str
    where: str = ""


@dataclass(frozen=True, slots=True)
class Match:
    """One labelled (argument, key point) pair: ``label`` 1 if the key point matches."""

    arg_id: str
    kp_id: str
    label: int
    where: str = ""


@dataclass(frozen=True)
class ArgKPSplit:
    """The evaluation view of one split, as :func:`load_split` reads it.

    ``arguments`` and ``key_points`` are grouped by ``(topic, stance)`` in file order; ``rejected``
    lists the rows that could not be used.
    """

    split: str
    topics: tuple[str, ...]
    arguments: Mapping[tuple[str, Stance], tuple[ArgKPArgument, ...]]
    key_points: Mapping[tuple[str, Stance], tuple[KeyPoint, ...]]
    matches: tuple[Match, ...]
    rejected: tuple[Rejected, ...] = field(default=())

    def clusters(self) -> dict[str, tuple[str, ...]]:
        """Ground-truth clusters: key point id -> ids of the arguments labelled as matching it."""
        out: dict[str, list[str]] = defaultdict(list)
        for match in self.matches:
            if match.label == 1:
                out[match.kp_id].append(match.arg_id)
        return {kp_id: tuple(arg_ids) for kp_id, arg_ids in out.items()}


_Item = TypeVar("_Item", "ArgKPArgument", "KeyPoint")


@dataclass
class _SplitFiles:
    arguments: Path | None = None
    key_points: Path | None = None
    labels: Path | None = None


def read(
    paths: Sequence[str | os.PathLike[str]], *, split: str | None = None
) -> Iterator[Record | Rejected]:
    """Records of the ArgKP dataset directory (or explicit ``<kind>_<split>.csv`` files).

    ``split`` picks one split (``"train"``, ``"dev"``); None reads every split found.
    """
    for name, files in _find_splits(paths, split).items():
        yield from _split_records(name, files)


def load_split(root: str | os.PathLike[str], split: str) -> ArgKPSplit:
    """The arguments, key points and match labels of one split, for evaluation without Neo4j."""
    files = _find_splits([root], split)[split]
    rejected: list[Rejected] = []
    arguments: dict[str, ArgKPArgument] = {}
    key_points: dict[str, KeyPoint] = {}
    matches: list[Match] = []
    topics: dict[str, None] = {}
    if files.arguments is not None:
        for item in _read_items(files.arguments, split, ARGUMENT_COLUMNS, ArgKPArgument):
            if isinstance(item, Rejected):
                rejected.append(item)
            else:
                arguments[item.arg_id] = item
                topics.setdefault(item.topic)
    if files.key_points is not None:
        for kp in _read_items(files.key_points, split, KEY_POINT_COLUMNS, KeyPoint):
            if isinstance(kp, Rejected):
                rejected.append(kp)
            else:
                key_points[kp.kp_id] = kp
                topics.setdefault(kp.topic)
    if files.labels is not None:
        for match in _read_labels(files.labels, arguments, key_points):
            if isinstance(match, Rejected):
                rejected.append(match)
            else:
                matches.append(match)
    return ArgKPSplit(
        split=split,
        topics=tuple(topics),
        arguments=_group(arguments.values()),
        key_points=_group(key_points.values()),
        matches=tuple(matches),
        rejected=tuple(rejected),
    )


def _find_splits(
    paths: Sequence[str | os.PathLike[str]], split: str | None = None
) -> dict[str, _SplitFiles]:
    """The files of each split (train, dev, then others by name) among directories and files."""
    found: dict[str, _SplitFiles] = {}
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            candidates = sorted(p for p in path.iterdir() if _FILE_NAME.match(p.name))
        elif path.is_file():
            if not _FILE_NAME.match(path.name):
                raise LoadError(
                    str(path), "<file>", "expected arguments_, key_points_ or labels_<split>.csv"
                )
            candidates = [path]
        else:
            raise LoadError(str(path), "<file>", not_a_file(path, or_directory=True))
        for candidate in candidates:
            match = _FILE_NAME.match(candidate.name)
            assert match is not None
            kind, name = match.group(1), match.group(2)
            setattr(found.setdefault(name, _SplitFiles()), kind, candidate)
    where = ", ".join(str(p) for p in paths)
    if not found:
        raise LoadError(where, "<file>", "no arguments_/key_points_/labels_<split>.csv found")
    order = {name: i for i, name in enumerate(_SPLIT_ORDER)}
    found = dict(sorted(found.items(), key=lambda item: (order.get(item[0], len(order)), item[0])))
    if split is not None:
        if split not in found:
            raise LoadError(where, "split", f"no split {split!r}; found: {', '.join(found)}")
        found = {split: found[split]}
    for name, files in found.items():
        if files.labels is not None and (files.arguments is None or files.key_points is None):
            raise LoadError(
                str(files.labels),
                "<file>",
                f"labels need arguments_{name}.csv and key_points_{name}.csv to resolve their ids",
            )
    return found


def _split_records(split: str, files: _SplitFiles) -> Iterator[Record | Rejected]:
    sources: set[str] = set()
    arguments: dict[str, ArgKPArgument] = {}
    key_points: dict[str, KeyPoint] = {}
    if files.arguments is not None:
        for item in _read_items(files.arguments, split, ARGUMENT_COLUMNS, ArgKPArgument):
            if isinstance(item, Rejected):
                yield item
                continue
            arguments[item.arg_id] = item
            sid = source_id(split, item.topic)
            if sid not in sources:
                sources.add(sid)
                yield _source(sid, split, item.topic, item.where)
            yield ArgumentRecord(
                aid=f"{FORMAT}:{item.arg_id}",
                conclusion=UnitRef(item.topic),
                premises=(UnitRef(item.text),),
                stance=item.stance,
                source=sid,
                properties=(("split", split), ("arg_id", item.arg_id)),
                where=item.where,
                fields=("topic", "argument"),
            )
    if files.key_points is not None:
        for kp in _read_items(files.key_points, split, KEY_POINT_COLUMNS, KeyPoint):
            if isinstance(kp, Rejected):
                yield kp
                continue
            key_points[kp.kp_id] = kp
            sid = source_id(split, kp.topic)
            if sid not in sources:
                sources.add(sid)
                yield _source(sid, split, kp.topic, kp.where)
            yield UnitRecord(
                unit=UnitRef(kp.text),
                labels=("KeyPoint",),
                properties=(
                    ("kp_id", kp.kp_id),
                    ("topic", kp.topic),
                    ("stance", kp.stance),
                    ("split", split),
                ),
                source=sid,
                where=kp.where,
                field="key_point",
            )
    if files.labels is not None:
        for match in _read_labels(files.labels, arguments, key_points):
            if isinstance(match, Rejected):
                yield match
                continue
            yield LinkRecord(
                start=UnitRef(arguments[match.arg_id].text),
                end=UnitRef(key_points[match.kp_id].text),
                type=MATCH_TYPE,
                properties=(
                    ("label", match.label),
                    ("arg_id", match.arg_id),
                    ("kp_id", match.kp_id),
                ),
                where=match.where,
            )


def source_id(split: str, topic: str) -> str:
    """The source id of a topic in a split: ``argkp:<split>:<slug of the normalised topic>``."""
    slug = re.sub(r"[^\w]+", "-", normalise_text(topic)).strip("-")
    return f"{FORMAT}:{split}:{slug}"


def _source(sid: str, split: str, topic: str, where: str) -> SourceRecord:
    return SourceRecord(sid=sid, properties=(("topic", topic), ("split", split)), where=where)


def _read_items(
    path: Path, split: str, columns: tuple[str, ...], item: type[_Item]
) -> Iterator[_Item | Rejected]:
    """The rows of an arguments or key points file (``id, text, topic, stance``) as ``item``s."""
    first_seen: dict[str, str] = {}
    for where, row in csv_rows(path, columns):
        values = row if isinstance(row, Rejected) else required_fields(where, row, columns)
        if isinstance(values, Rejected):
            yield values
            continue
        item_id, text, topic, stance_text = values
        stance = _STANCES.get(stance_text)
        if stance is None:
            yield Rejected(where, "stance", f"unknown stance {stance_text!r} (expected 1 or -1)")
        elif item_id in first_seen:
            yield Rejected(
                where, columns[0], f"duplicate id {item_id!r} (first at {first_seen[item_id]})"
            )
        else:
            first_seen[item_id] = where
            yield item(item_id, text, topic, stance, split, where)


def _read_labels(
    path: Path, arguments: Mapping[str, ArgKPArgument], key_points: Mapping[str, KeyPoint]
) -> Iterator[Match | Rejected]:
    first_seen: dict[tuple[str, str], str] = {}
    for where, row in csv_rows(path, LABEL_COLUMNS):
        values = row if isinstance(row, Rejected) else required_fields(where, row, LABEL_COLUMNS)
        if isinstance(values, Rejected):
            yield values
            continue
        arg_id, kp_id, label_text = values
        label = _LABELS.get(label_text)
        if label is None:
            yield Rejected(where, "label", f"unknown label {label_text!r} (expected 0 or 1)")
        elif arg_id not in arguments:
            yield Rejected(where, "arg_id", f"unknown argument id {arg_id!r}")
        elif kp_id not in key_points:
            yield Rejected(where, "key_point_id", f"unknown key point id {kp_id!r}")
        elif (arg_id, kp_id) in first_seen:
            first = first_seen[(arg_id, kp_id)]
            yield Rejected(where, "arg_id", f"pair labelled twice (first at {first})")
        else:
            first_seen[(arg_id, kp_id)] = where
            yield Match(arg_id, kp_id, label, where)


def _group(items: Iterable[_Item]) -> dict[tuple[str, Stance], tuple[_Item, ...]]:
    out: dict[tuple[str, Stance], list[_Item]] = defaultdict(list)
    for item in items:
        out[(item.topic, item.stance)].append(item)
    return {key: tuple(group) for key, group in out.items()}
