"""Webis-ArgQuality-20 (Gienapp et al., ACL 2020): args.me premises judged for 20 topics.

Format: two UTF-8 CSV files with a header row, ``webis-argquality20-topics.csv``::

    Topic ID,Category,Long Query,Short Query
    1,Economy & Taxes,Should the Federal Minimum Wage Be Increased?,Minimum Wage

and ``webis-argquality20-arguments.csv`` (1,610 rows)::

    Topic ID,Argument ID,Discussion ID,Premise,Relevance,Is Argument?,Rhetorical Quality,
    Logical Quality,Dialectical Quality,Text Length,Stance,Combined Quality

The five scores are z-normalised reals (Bradley-Terry estimates from pairwise judgements); a
premise judged not to be an argument (``Is Argument?`` = ``False``, 339 rows) has ``-4.0`` in all
five, which this loader keeps as published. ``Text Length`` is the premise's word count.
``Stance`` is ``True``/``False`` in the released file (the corpus README documents Pro / Con /
Not specified): ``True``/``Pro`` -> ``pro``, ``False``/``Con`` -> ``con``. It is the args.me stance,
i.e. towards the conclusion of the premise's original debate, which is often, but not always, the
topic's query.

Identity: ``Argument ID`` counts within a discussion, so neither it nor (topic, argument) is unique
(234 repeats); (topic, discussion, argument) is, and is the corpus's documented primary key. The
same premise may be judged under several topics (4 (discussion, argument) pairs appear twice).

Mapping: each argument row -> :class:`ArgumentRecord`
``argquality:<topic id>:<discussion id>:<argument id>`` with the topic's Long Query as the
conclusion, the Premise as the single premise, the stance above, source
``argquality:discussion:<discussion id>`` (a :class:`SourceRecord` the first time it is seen) and
the properties ``topic_id``, ``discussion_id``, ``argument_id``, ``relevance``, ``is_argument``,
``rhetorical``, ``logical``, ``dialectical``, ``combined`` (floats), ``text_length`` (int).
``read(..., arguments_only=True)`` skips the rows judged not to be arguments.

A premise whose text is its topic's Long Query (one row of the released file, line 941: "should
the death penalty be allowed?", judged not an argument) would be an argument that supports
itself: it is :class:`LeftOut` (a warning with a count, like AIF structure argkb does not model),
so the corpus loads with default options; 1,609 of the 1,610 rows become arguments.

Bad input: a row with more or fewer fields than the header (field ``<columns>``), a missing or
empty field, a non-numeric id, an unknown topic, stance or boolean, a score that is not a finite
number, or a field that is not UTF-8 becomes a :class:`Rejected` naming ``file:line N``; reading
goes on. A missing file or column raises :class:`~argkb.errors.LoadError`. Topics are read first
(20 rows), then arguments row by row.

:func:`load_judgements` gives topics and per-topic judged premises for evaluation without Neo4j.
"""

from __future__ import annotations

import math
import os
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .common import csv_integer, csv_rows, required_fields, topics_and_arguments
from .records import (
    ArgumentRecord,
    LeftOut,
    Record,
    Rejected,
    SourceRecord,
    Stance,
    UnitRef,
)

FORMAT = "argquality"

TOPIC_COLUMNS = ("Topic ID", "Category", "Long Query", "Short Query")
ARGUMENT_COLUMNS = (
    "Topic ID",
    "Argument ID",
    "Discussion ID",
    "Premise",
    "Relevance",
    "Is Argument?",
    "Rhetorical Quality",
    "Logical Quality",
    "Dialectical Quality",
    "Text Length",
    "Stance",
    "Combined Quality",
)

_STANCES: dict[str, Stance] = {"true": "pro", "pro": "pro", "false": "con", "con": "con"}
_BOOLEANS = {"true": True, "false": False}
# property name -> column, for the five z-normalised scores
_SCORES = (
    ("relevance", "Relevance"),
    ("rhetorical", "Rhetorical Quality"),
    ("logical", "Logical Quality"),
    ("dialectical", "Dialectical Quality"),
    ("combined", "Combined Quality"),
)


@dataclass(frozen=True, slots=True)
class Topic:
    """One topic: its id, category, long query (the conclusion) and short query."""

    topic_id: int
    category: str
    long_query: str
    short_query: str
    where: str = ""


@dataclass(frozen=True, slots=True)
class JudgedPremise:
    """One judged premise with its scores (z-normalised; -4.0 everywhere when not an argument)."""

    topic_id: int
    discussion_id: int
    argument_id: int
    premise: str
    stance: Stance
    is_argument: bool
    relevance: float
    rhetorical: float
    logical: float
    dialectical: float
    combined: float
    text_length: int
    where: str = ""

    @property
    def aid(self) -> str:
        """The argument id this premise gets in the graph."""
        return f"{FORMAT}:{self.topic_id}:{self.discussion_id}:{self.argument_id}"


@dataclass(frozen=True)
class ArgQualityJudgements:
    """Topics by id and, per topic, its judged premises in file order (:func:`load_judgements`)."""

    topics: Mapping[int, Topic]
    premises: Mapping[int, tuple[JudgedPremise, ...]]
    rejected: tuple[Rejected, ...] = field(default=())


def read(
    paths: Sequence[str | os.PathLike[str]], *, arguments_only: bool = False
) -> Iterator[Record | Rejected | LeftOut]:
    """Records of the Webis-ArgQuality-20 directory, or of its topics and arguments files."""
    topics_path, arguments_path = topics_and_arguments(paths)
    topics: dict[int, Topic] = {}
    for topic in _read_topics(topics_path):
        if isinstance(topic, Rejected):
            yield topic
        else:
            topics[topic.topic_id] = topic
    sources: set[str] = set()
    for item in _read_premises(arguments_path, topics):
        if isinstance(item, Rejected):
            yield item
            continue
        if arguments_only and not item.is_argument:
            continue
        conclusion = UnitRef(topics[item.topic_id].long_query)
        premise = UnitRef(item.premise)
        if premise.uid == conclusion.uid:
            yield LeftOut(
                item.where,
                "premise is the query",
                f"the premise is topic {item.topic_id}'s query, which this loader uses as the "
                "conclusion (an argument cannot support itself); left out",
            )
            continue
        sid = f"{FORMAT}:discussion:{item.discussion_id}"
        if sid not in sources:
            sources.add(sid)
            yield SourceRecord(
                sid=sid, properties=(("discussion_id", item.discussion_id),), where=item.where
            )
        yield ArgumentRecord(
            aid=item.aid,
            conclusion=conclusion,
            premises=(premise,),
            stance=item.stance,
            source=sid,
            properties=(
                ("topic_id", item.topic_id),
                ("discussion_id", item.discussion_id),
                ("argument_id", item.argument_id),
                ("relevance", item.relevance),
                ("is_argument", item.is_argument),
                ("rhetorical", item.rhetorical),
                ("logical", item.logical),
                ("dialectical", item.dialectical),
                ("combined", item.combined),
                ("text_length", item.text_length),
            ),
            where=item.where,
            fields=(f"Long Query (of topic {item.topic_id})", "Premise"),
        )


def load_judgements(root: str | os.PathLike[str]) -> ArgQualityJudgements:
    """Topics and per-topic judged premises with their scores, for evaluation without Neo4j."""
    topics_path, arguments_path = topics_and_arguments([root])
    rejected: list[Rejected] = []
    topics: dict[int, Topic] = {}
    for topic in _read_topics(topics_path):
        if isinstance(topic, Rejected):
            rejected.append(topic)
        else:
            topics[topic.topic_id] = topic
    premises: dict[int, list[JudgedPremise]] = defaultdict(list)
    for item in _read_premises(arguments_path, topics):
        if isinstance(item, Rejected):
            rejected.append(item)
        else:
            premises[item.topic_id].append(item)
    return ArgQualityJudgements(
        topics=topics,
        premises={topic_id: tuple(premises.get(topic_id, ())) for topic_id in topics},
        rejected=tuple(rejected),
    )


def _read_topics(path: Path) -> Iterator[Topic | Rejected]:
    first_seen: dict[int, str] = {}
    for where, row in csv_rows(path, TOPIC_COLUMNS):
        values = row if isinstance(row, Rejected) else required_fields(where, row, TOPIC_COLUMNS)
        if isinstance(values, Rejected):
            yield values
            continue
        topic_id = csv_integer(where, "Topic ID", values[0])
        if isinstance(topic_id, Rejected):
            yield topic_id
        elif topic_id in first_seen:
            yield Rejected(where, "Topic ID", f"duplicate id (first at {first_seen[topic_id]})")
        else:
            first_seen[topic_id] = where
            yield Topic(topic_id, values[1], values[2], values[3], where)


def _read_premises(path: Path, topics: Mapping[int, Topic]) -> Iterator[JudgedPremise | Rejected]:
    first_seen: dict[tuple[int, int, int], str] = {}
    for where, row in csv_rows(path, ARGUMENT_COLUMNS):
        item = row if isinstance(row, Rejected) else _premise(where, row, topics)
        if isinstance(item, JudgedPremise):
            key = (item.topic_id, item.discussion_id, item.argument_id)
            if key in first_seen:
                item = Rejected(where, "Argument ID", f"duplicate key (first at {first_seen[key]})")
            else:
                first_seen[key] = where
        yield item


def _premise(
    where: str, row: Mapping[str, str], topics: Mapping[int, Topic]
) -> JudgedPremise | Rejected:
    values = required_fields(where, row, ARGUMENT_COLUMNS)
    if isinstance(values, Rejected):
        return values
    cells = dict(zip(ARGUMENT_COLUMNS, values, strict=True))
    ids = []
    for name in ("Topic ID", "Discussion ID", "Argument ID", "Text Length"):
        number = csv_integer(where, name, cells[name])
        if isinstance(number, Rejected):
            return number
        ids.append(number)
    topic_id, discussion_id, argument_id, text_length = ids
    if topic_id not in topics:
        return Rejected(where, "Topic ID", f"unknown topic {topic_id} (not in the topics file)")
    stance = _STANCES.get(cells["Stance"].lower())
    if stance is None:
        reason = f"unknown stance {cells['Stance']!r} (expected True/False or Pro/Con)"
        return Rejected(where, "Stance", reason)
    is_argument = _BOOLEANS.get(cells["Is Argument?"].lower())
    if is_argument is None:
        return Rejected(
            where, "Is Argument?", f"expected True or False, got {cells['Is Argument?']!r}"
        )
    scores: dict[str, float] = {}
    for name, column in _SCORES:
        score = _real(where, column, cells[column])
        if isinstance(score, Rejected):
            return score
        scores[name] = score
    return JudgedPremise(
        topic_id=topic_id,
        discussion_id=discussion_id,
        argument_id=argument_id,
        premise=cells["Premise"],
        stance=stance,
        is_argument=is_argument,
        text_length=text_length,
        where=where,
        **scores,
    )


def _real(where: str, name: str, value: str) -> float | Rejected:
    try:
        number = float(value)
    except ValueError:
        return Rejected(where, name, f"not a number: {value!r}")
    if not math.isfinite(number):
        return Rejected(where, name, f"not a finite number: {value!r}")
    return number
