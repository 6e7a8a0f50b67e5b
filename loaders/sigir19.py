"""Webis SIGIR 2019 argument-search study (Potthast et al., SIGIR 2019): judged args.me arguments.

"Argument Search: Assessing Argument Relevance" judged args.me arguments for 40 topics; each of
20 *issues* is asked twice, as a biased and a neutral query. The release (webis-de/SIGIR-19) has
two UTF-8 CSV files with a header row, ``topics.csv``::

    Topic ID,Biased,Annotator Stance,Thesis,Description,Query
    0030,False,I disagree,Abortion should be banned.,"Being required to ...",abortion ban

(``Thesis`` is empty for the biased topics) and ``arguments.csv``, one row per judgement::

    Topic ID,Discussion ID,Argument ID,Is Argument?,Stance,Relevance,Logical Quality,
    Rhetorical Quality,Dialectical Quality,Conclusion,Premise,Comment

``Conclusion`` is the args.me conclusion, i.e. the debate's title as its author wrote it;
``Stance`` (``Pro`` / ``Con`` / ``Not specified``) is the premise's stance towards that
conclusion, not towards the topic. ``Relevance`` is 1 (not relevant) to 4 (very relevant), the
three qualities 1 to 4; all four are ``-2`` where the annotator marked the text as spam or not an
argument (``Is Argument?`` is then ``False`` too, as a rule). ``Comment`` is free text, often
empty or ``None``.

Identity: ``Argument ID`` counts within a discussion (``00000001`` is the first post of every
debate), so an argument is identified by (``Discussion ID``, ``Argument ID``), read as integers
(``00006608`` = 6608). The same argument is judged for both topics of an issue when both
queries retrieved it (52 of the 203 arguments of the dev half, each twice): the graph holds it
**once**, while :func:`load_judgements` keeps every row (each is one topic's judgement). A
(topic, discussion, argument) triple that repeats is a duplicate judgement and is rejected; a
repeated argument whose conclusion, premise or stance differs from its first row is rejected
too (the graph could only hold one of them).

Mapping: each argument -> one :class:`ArgumentRecord` ``sigir19:<discussion>:<argument>`` with
the real conclusion (``Conclusion``), the ``Premise`` as the single premise, the stance
``Pro`` -> ``pro``, ``Con`` -> ``con``, ``Not specified`` -> ``unknown``, source
``sigir19:discussion:<discussion>`` (a :class:`SourceRecord` the first time it is seen), and the
properties

- ``discussion_id``, ``argument_id`` (int), ``judgements`` (int, how many topics judged it),
  ``topic_ids`` (text, ascending, comma-separated: ``"1,30"``);
- ``is_argument``: True when every judgement says it is one (5 of the 52 twice-judged arguments
  of the dev half have one True and one False);
- ``relevance``: the largest relevance over its topics (-2, 1..4), and ``relevance_by_topic``
  (text, ``"1:3,30:4"``) with each topic's;
- ``logical``, ``rhetorical``, ``dialectical`` (float): the mean of the judged qualities, ``-2``
  (spam / no argument) left out of the mean; ``-2.0`` when every judgement is ``-2``;
- ``comment`` (text, the distinct comments joined by `` | ``), only where one is not empty and
  not ``None``.

The arguments file is read twice (first the judgements of each argument, a few numbers per row,
then the records), so no text is held in memory beyond one row.

An argument whose premise equals its conclusion (after normalisation) would support itself: it
is :class:`LeftOut` with a warning (none in the dev half).

Issues: the release does not say which two topics form an issue. :func:`topic_issues` pairs each
biased topic with one neutral topic, maximising first the number of arguments both judged, then
the words their queries share (an optimal assignment; see its docstring). On the dev half this
gives the 10 issues of the study; a topic left without a partner is an issue of its own.

Bad input: a row with more or fewer fields than the header (field ``<columns>``; an empty
``Comment`` is an empty last field, not a missing one), a missing or empty required field
(``Thesis``, ``Description``, ``Annotator Stance`` and ``Comment`` may be empty), a non-numeric id,
an unknown topic, stance or boolean, a relevance or quality outside ``-2, 1..4``, or a field that
is not UTF-8 becomes a :class:`Rejected` naming ``file:line N`` and the field; reading goes on. A
missing file or column raises :class:`~argkb.errors.LoadError`.

:func:`load_judgements` gives topics, issues and per-topic judgements for evaluation without
Neo4j.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .common import csv_integer, csv_rows, required_fields, topics_and_arguments
from .records import (
    ArgumentRecord,
    LeftOut,
    Properties,
    Record,
    Rejected,
    SourceRecord,
    StanceLabel,
    UnitRef,
)

FORMAT = "sigir19"

TOPIC_COLUMNS = ("Topic ID", "Biased", "Annotator Stance", "Thesis", "Description", "Query")
TOPIC_REQUIRED = ("Topic ID", "Biased", "Query")
ARGUMENT_COLUMNS = (
    "Topic ID",
    "Discussion ID",
    "Argument ID",
    "Is Argument?",
    "Stance",
    "Relevance",
    "Logical Quality",
    "Rhetorical Quality",
    "Dialectical Quality",
    "Conclusion",
    "Premise",
    "Comment",
)
ARGUMENT_REQUIRED = ARGUMENT_COLUMNS[:-1]  # all but Comment
SPAM = -2  # relevance and qualities of a text marked as spam or not an argument
SCALE = (SPAM, 1, 2, 3, 4)

_STANCES: dict[str, StanceLabel] = {"pro": "pro", "con": "con", "not specified": "unknown"}
_BOOLEANS = {"true": True, "false": False}
_NO_COMMENT = ("", "none")
# property name -> column, for the three quality scores
_QUALITIES = (
    ("logical", "Logical Quality"),
    ("rhetorical", "Rhetorical Quality"),
    ("dialectical", "Dialectical Quality"),
)


@dataclass(frozen=True, slots=True)
class Topic:
    """One topic: a biased or neutral query on an issue, as the annotators saw it."""

    topic_id: int
    biased: bool
    annotator_stance: str
    thesis: str
    description: str
    query: str
    where: str = ""


@dataclass(frozen=True, slots=True)
class Judgement:
    """One row of ``arguments.csv``: an argument judged for one topic."""

    topic_id: int
    discussion_id: int
    argument_id: int
    is_argument: bool
    stance: StanceLabel
    relevance: int
    logical: int
    rhetorical: int
    dialectical: int
    conclusion: str
    premise: str
    comment: str = ""
    where: str = ""

    @property
    def key(self) -> tuple[int, int]:
        """The argument's identity: (discussion, argument)."""
        return (self.discussion_id, self.argument_id)

    @property
    def aid(self) -> str:
        """The argument id in the graph (one per argument, whatever topics judged it)."""
        return f"{FORMAT}:{self.discussion_id}:{self.argument_id}"


@dataclass(frozen=True)
class SIGIR19Judgements:
    """Topics by id, per topic its judgements in file order, and the issue of each topic
    (:func:`load_judgements`). ``issues[topic_id]`` is the smallest topic id of the issue."""

    topics: Mapping[int, Topic]
    judgements: Mapping[int, tuple[Judgement, ...]]
    issues: Mapping[int, int]
    rejected: tuple[Rejected, ...] = field(default=())


def read(paths: Sequence[str | os.PathLike[str]]) -> Iterator[Record | Rejected | LeftOut]:
    """Records of the SIGIR-19 directory, or of its topics and arguments files."""
    topics_path, arguments_path = topics_and_arguments(paths)
    topics: dict[int, Topic] = {}
    for topic in _read_topics(topics_path):
        if isinstance(topic, Rejected):
            yield topic
        else:
            topics[topic.topic_id] = topic
    # first pass: the judgements of each argument (numbers only), for its properties
    summaries: dict[tuple[int, int], list[Judgement]] = defaultdict(list)
    for item in _read_judgements(arguments_path, topics):
        if isinstance(item, Judgement):
            summaries[item.key].append(_without_texts(item))
    emitted: set[tuple[int, int]] = set()
    sources: set[str] = set()
    for item in _read_judgements(arguments_path, topics):
        if isinstance(item, Rejected):
            yield item
            continue
        if item.key in emitted:
            continue  # judged for a second topic: kept in the judgements, one node in the graph
        emitted.add(item.key)
        conclusion, premise = UnitRef(item.conclusion), UnitRef(item.premise)
        if premise.uid == conclusion.uid:
            yield LeftOut(
                item.where,
                "premise is the conclusion",
                f"the premise of discussion {item.discussion_id}, argument {item.argument_id} "
                "is its own conclusion (an argument cannot support itself); left out",
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
            properties=argument_properties(summaries[item.key]),
            where=item.where,
            fields=("Conclusion", "Premise"),
        )


def argument_properties(judgements: Sequence[Judgement]) -> Properties:
    """The properties of one argument from all its judgements (module docstring)."""
    first = judgements[0]
    by_topic = sorted((j.topic_id, j.relevance) for j in judgements)
    props: list[tuple[str, str | int | float | bool | None]] = [
        ("discussion_id", first.discussion_id),
        ("argument_id", first.argument_id),
        ("judgements", len(judgements)),
        ("topic_ids", ",".join(str(t) for t, _ in by_topic)),
        ("is_argument", all(j.is_argument for j in judgements)),
        ("relevance", max(r for _, r in by_topic)),
        ("relevance_by_topic", ",".join(f"{t}:{r}" for t, r in by_topic)),
    ]
    for name, _ in _QUALITIES:
        scores = [getattr(j, name) for j in judgements if getattr(j, name) != SPAM]
        props.append((name, sum(scores) / len(scores) if scores else float(SPAM)))
    comments = dict.fromkeys(j.comment for j in judgements if j.comment)
    if comments:
        props.append(("comment", " | ".join(comments)))
    return tuple(props)


def load_judgements(root: str | os.PathLike[str]) -> SIGIR19Judgements:
    """Topics, per-topic judgements (every row, an argument judged twice included twice) and
    the topic -> issue map, for evaluation without Neo4j."""
    topics_path, arguments_path = topics_and_arguments([root])
    rejected: list[Rejected] = []
    topics: dict[int, Topic] = {}
    for topic in _read_topics(topics_path):
        if isinstance(topic, Rejected):
            rejected.append(topic)
        else:
            topics[topic.topic_id] = topic
    judgements: dict[int, list[Judgement]] = defaultdict(list)
    for item in _read_judgements(arguments_path, topics):
        if isinstance(item, Rejected):
            rejected.append(item)
        else:
            judgements[item.topic_id].append(item)
    per_topic = {topic_id: tuple(judgements.get(topic_id, ())) for topic_id in topics}
    return SIGIR19Judgements(
        topics=topics,
        judgements=per_topic,
        issues=topic_issues(topics, per_topic),
        rejected=tuple(rejected),
    )


# -- issues ------------------------------------------------------------------------------------

_WORD = re.compile(r"[a-z]+")
_STOP = frozenset(
    ("a", "an", "and", "are", "be", "been", "being", "can", "do", "does", "doesn", "don", "for",
     "in", "is", "isn", "it", "not", "of", "on", "or", "should", "t", "the", "to", "was", "we",
     "what", "whether", "who", "why", "will", "with")
)  # fmt: skip


def _words(text: str) -> set[str]:
    return {w.removesuffix("s") for w in _WORD.findall(text.lower()) if w not in _STOP}


def _shared_words(a: set[str], b: set[str]) -> int:
    """Words of ``a`` that occur in ``b``, a word matching another that it begins, or that
    begins it, when the shorter has at least four letters (``exist`` / ``existence``)."""
    return sum(
        any(x == y or (min(len(x), len(y)) >= 4 and (x.startswith(y) or y.startswith(x)))
            for y in b)
        for x in a
    )  # fmt: skip


def topic_issues(
    topics: Mapping[int, Topic], judgements: Mapping[int, Sequence[Judgement]]
) -> dict[int, int]:
    """Topic id -> issue id (the smallest topic id of the issue): each biased topic paired with
    at most one neutral topic.

    A pair's score is ``1000 * arguments judged for both + words their queries share`` (words
    lower-cased, a plural ``s`` and a few function words dropped, a word matching one it begins
    or that begins it); the pairing maximises the total score (``scipy``'s
    ``linear_sum_assignment``), and a pair of score 0 is no pair. Ties pair the k-th biased
    topic (by id) with the k-th neutral one where they can. On the dev half, 8 issues share
    judged arguments and the other two pair by their queries' words ("god doesn't exist" /
    "existence of god", "religion is unnecessary" / "religion necessary").
    """
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    biased = sorted(t for t, topic in topics.items() if topic.biased)
    neutral = sorted(t for t, topic in topics.items() if not topic.biased)
    keys = {t: {j.key for j in judgements.get(t, ())} for t in topics}
    words = {t: _words(topics[t].query) for t in topics}
    score = np.zeros((len(biased), len(neutral)))
    for i, b in enumerate(biased):
        for j, n in enumerate(neutral):
            score[i, j] = 1000 * len(keys[b] & keys[n]) + _shared_words(words[b], words[n])
    issue = {t: t for t in topics}
    if score.size:
        # ties pair the topics in the order of their ids: a penalty far below one shared word
        gap = np.subtract.outer(np.arange(len(biased)), np.arange(len(neutral))) ** 2
        rows, cols = linear_sum_assignment(score - gap / (1e3 * gap.max() + 1e3), maximize=True)
        for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
            if score[i, j] > 0:
                first = min(biased[i], neutral[j])
                issue[biased[i]] = issue[neutral[j]] = first
    return dict(sorted(issue.items()))


# -- reading -----------------------------------------------------------------------------------


def _read_topics(path: Path) -> Iterator[Topic | Rejected]:
    first_seen: dict[int, str] = {}
    for where, row in csv_rows(path, TOPIC_COLUMNS):
        if isinstance(row, Rejected):
            yield row
            continue
        values = required_fields(where, row, TOPIC_REQUIRED)
        if isinstance(values, Rejected):
            yield values
            continue
        optional = _optional_fields(where, row, ("Annotator Stance", "Thesis", "Description"))
        if isinstance(optional, Rejected):
            yield optional
            continue
        topic_id = csv_integer(where, "Topic ID", values[0])
        biased = _BOOLEANS.get(values[1].lower())
        if isinstance(topic_id, Rejected):
            yield topic_id
        elif biased is None:
            yield Rejected(where, "Biased", f"expected True or False, got {values[1]!r:.60}")
        elif topic_id in first_seen:
            yield Rejected(where, "Topic ID", f"duplicate id (first at {first_seen[topic_id]})")
        else:
            first_seen[topic_id] = where
            stance, thesis, description = optional
            yield Topic(topic_id, biased, stance, thesis, description, values[2], where)


def _read_judgements(path: Path, topics: Mapping[int, Topic]) -> Iterator[Judgement | Rejected]:
    """Every row as a :class:`Judgement`, or a :class:`Rejected` for a bad row, a repeated
    (topic, discussion, argument), or a repeated argument that differs from its first row."""
    first_judged: dict[tuple[int, int, int], str] = {}
    # argument -> (where, hashes of its conclusion and premise, stance) as first read
    first_row: dict[tuple[int, int], tuple[str, tuple[int, int, str]]] = {}
    for where, row in csv_rows(path, ARGUMENT_COLUMNS):
        item = row if isinstance(row, Rejected) else _judgement(where, row, topics)
        if isinstance(item, Judgement):
            triple = (item.topic_id, *item.key)
            content = (hash(item.conclusion), hash(item.premise), item.stance)
            if triple in first_judged:
                reason = f"topic and argument judged twice (first at {first_judged[triple]})"
                item = Rejected(where, "Argument ID", reason)
            elif item.key in first_row and first_row[item.key][1] != content:
                item = _differs(item, *first_row[item.key], content)
            else:
                first_judged[triple] = where
                first_row.setdefault(item.key, (where, content))
        yield item


def _differs(
    item: Judgement, first: str, was: tuple[int, int, str], now: tuple[int, int, str]
) -> Rejected:
    """A repeated argument whose conclusion, premise or stance differs from its first row."""
    fields = ("Conclusion", "Premise", "Stance")
    name = next(n for n, a, b in zip(fields, was, now, strict=True) if a != b)
    return Rejected(
        item.where,
        name,
        f"discussion {item.discussion_id}, argument {item.argument_id} was read at {first} "
        f"with another {name.lower()} (one argument, one text and stance)",
    )


def _without_texts(item: Judgement) -> Judgement:
    return Judgement(
        item.topic_id, item.discussion_id, item.argument_id, item.is_argument, item.stance,
        item.relevance, item.logical, item.rhetorical, item.dialectical, "", "",
        item.comment, item.where,
    )  # fmt: skip


def _judgement(
    where: str, row: Mapping[str, str], topics: Mapping[int, Topic]
) -> Judgement | Rejected:
    values = required_fields(where, row, ARGUMENT_REQUIRED)
    if isinstance(values, Rejected):
        return values
    comment = _optional_fields(where, row, ("Comment",))
    if isinstance(comment, Rejected):
        return comment
    cells = dict(zip(ARGUMENT_REQUIRED, values, strict=True))
    ids = []
    for name in ("Topic ID", "Discussion ID", "Argument ID"):
        number = csv_integer(where, name, cells[name])
        if isinstance(number, Rejected):
            return number
        ids.append(number)
    topic_id, discussion_id, argument_id = ids
    if topic_id not in topics:
        return Rejected(where, "Topic ID", f"unknown topic {topic_id} (not in the topics file)")
    stance = _STANCES.get(cells["Stance"].lower())
    if stance is None:
        reason = f"unknown stance {cells['Stance']!r:.60} (expected Pro, Con or Not specified)"
        return Rejected(where, "Stance", reason)
    is_argument = _BOOLEANS.get(cells["Is Argument?"].lower())
    if is_argument is None:
        reason = f"expected True or False, got {cells['Is Argument?']!r:.60}"
        return Rejected(where, "Is Argument?", reason)
    scores: dict[str, int] = {}
    for name, column in (("relevance", "Relevance"), *_QUALITIES):
        score = _grade(where, column, cells[column])
        if isinstance(score, Rejected):
            return score
        scores[name] = score
    text = comment[0]
    return Judgement(
        topic_id=topic_id,
        discussion_id=discussion_id,
        argument_id=argument_id,
        is_argument=is_argument,
        stance=stance,
        conclusion=cells["Conclusion"],
        premise=cells["Premise"],
        comment="" if text.lower() in _NO_COMMENT else text,
        where=where,
        **scores,
    )


def _optional_fields(
    where: str, row: Mapping[str, str], names: Sequence[str]
) -> list[str] | Rejected:
    """The stripped values of ``names`` (may be empty), or a Rejected for one not UTF-8."""
    values = []
    for name in names:
        value = row.get(name, "").strip()
        if value and isinstance(required_fields(where, {name: value}, (name,)), Rejected):
            return Rejected(where, name, "not UTF-8 (bytes that are no UTF-8 text)")
        values.append(value)
    return values


def _grade(where: str, name: str, value: str) -> int | Rejected:
    try:
        grade = int(value)
    except ValueError:
        grade = None
    if grade not in SCALE:
        return Rejected(where, name, f"expected -2 or 1 to 4, got {value!r:.60}")
    return grade
