"""Unit tests for the Webis-ArgQuality-20 loader, on tests/fixtures/argquality."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from argkb.errors import LoadError
from argkb.loaders import argquality
from argkb.loaders.records import ArgumentRecord, LeftOut, Rejected, SourceRecord, UnitRef

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "argquality"
ARGUMENTS = "webis-argquality20-arguments.csv"
TOPICS = "webis-argquality20-topics.csv"
HEADER = (
    "Topic ID,Argument ID,Discussion ID,Premise,Relevance,Is Argument?,Rhetorical Quality,"
    "Logical Quality,Dialectical Quality,Text Length,Stance,Combined Quality\n"
)
DEATH_PENALTY = "Should the Death Penalty Be Allowed?"


def _with_arguments(tmp_path: Path, rows: str) -> Path:
    root = tmp_path / "argquality"
    root.mkdir()
    shutil.copy(FIXTURE / TOPICS, root / TOPICS)
    (root / ARGUMENTS).write_text(HEADER + rows, encoding="utf-8")
    return root


def test_fixture_gives_exactly_these_records() -> None:
    records = list(argquality.read([FIXTURE]))
    assert records[:2] == [
        SourceRecord(
            "argquality:discussion:1349",
            (("discussion_id", 1349),),
            f"{FIXTURE}/{ARGUMENTS}:line 2",
        ),
        ArgumentRecord(
            aid="argquality:14:1349:3",
            conclusion=UnitRef(DEATH_PENALTY),
            premises=(UnitRef("The death penalty deters violent crime, and it is just."),),
            stance="pro",
            source="argquality:discussion:1349",
            properties=(
                ("topic_id", 14),
                ("discussion_id", 1349),
                ("argument_id", 3),
                ("relevance", 0.8044698538620362),
                ("is_argument", True),
                ("rhetorical", 1.5350723788957257),
                ("logical", 0.9522679044804018),
                ("dialectical", 0.8817999064814852),
                ("combined", 1.2959366627272988),
                ("text_length", 10),
            ),
            where=f"{FIXTURE}/{ARGUMENTS}:line 2",
        ),
    ]
    summary = [
        (r.aid, r.conclusion.text, r.stance, r.source)
        for r in records
        if isinstance(r, ArgumentRecord)
    ]
    assert summary == [
        ("argquality:14:1349:3", DEATH_PENALTY, "pro", "argquality:discussion:1349"),
        ("argquality:14:2250:3", DEATH_PENALTY, "con", "argquality:discussion:2250"),
        ("argquality:14:2250:4", DEATH_PENALTY, "con", "argquality:discussion:2250"),
        (
            "argquality:1:18018:7",
            "Should the Federal Minimum Wage Be Increased?",
            "pro",
            "argquality:discussion:18018",
        ),
    ]
    sources = [r.sid for r in records if isinstance(r, SourceRecord)]
    assert sources == [
        "argquality:discussion:1349",
        "argquality:discussion:2250",
        "argquality:discussion:18018",
    ]


def test_non_arguments_keep_the_published_sentinel_or_are_skipped() -> None:
    records = [r for r in argquality.read([FIXTURE]) if isinstance(r, ArgumentRecord)]
    properties = dict(records[2].properties)
    assert properties["is_argument"] is False
    assert properties["relevance"] == properties["combined"] == -4.0
    assert properties["text_length"] == 6
    kept = [
        r.aid
        for r in argquality.read([FIXTURE], arguments_only=True)
        if isinstance(r, ArgumentRecord)
    ]
    assert "argquality:14:2250:4" not in kept
    assert len(kept) == 3


def test_explicit_files_in_any_order() -> None:
    records = list(argquality.read([FIXTURE / ARGUMENTS, FIXTURE / TOPICS]))
    assert sum(isinstance(r, ArgumentRecord) for r in records) == 4


def test_bad_rows_are_rejected_and_reading_goes_on(tmp_path: Path) -> None:
    good = "0.5,True,0.1,0.2,0.3,4,{stance},0.4"
    root = _with_arguments(
        tmp_path,
        f'14,1,10,"",{good.format(stance="True")}\n'
        f"14,2,10,Premise two,{good.format(stance='Neutral')}\n"
        f"x,3,10,Premise three,{good.format(stance='True')}\n"
        f"14,4,1e3,Premise four,{good.format(stance='True')}\n"
        f"99,5,10,Premise five,{good.format(stance='True')}\n"
        "14,6,10,Premise six,high,True,0.1,0.2,0.3,4,True,0.4\n"
        "14,7,10,Premise seven,0.5,True,nan,0.2,0.3,4,True,0.4\n"
        "14,8,10,Premise eight,0.5,maybe,0.1,0.2,0.3,4,True,0.4\n"
        "14,9,10,Premise nine,0.5,True,0.1,0.2,0.3,four,True,0.4\n"
        f"14,10,10,Premise ten,{good.format(stance='Con')}\n"
        f"14,10,10,Premise ten again,{good.format(stance='Pro')}\n",
    )
    records = list(argquality.read([root]))
    rejected = [r for r in records if isinstance(r, Rejected)]
    assert [(r.where, r.field) for r in rejected] == [
        (f"{root}/{ARGUMENTS}:line 2", "Premise"),
        (f"{root}/{ARGUMENTS}:line 3", "Stance"),
        (f"{root}/{ARGUMENTS}:line 4", "Topic ID"),
        (f"{root}/{ARGUMENTS}:line 5", "Discussion ID"),
        (f"{root}/{ARGUMENTS}:line 6", "Topic ID"),
        (f"{root}/{ARGUMENTS}:line 7", "Relevance"),
        (f"{root}/{ARGUMENTS}:line 8", "Rhetorical Quality"),
        (f"{root}/{ARGUMENTS}:line 9", "Is Argument?"),
        (f"{root}/{ARGUMENTS}:line 10", "Text Length"),
        (f"{root}/{ARGUMENTS}:line 12", "Argument ID"),
    ]
    assert "unknown stance 'Neutral'" in rejected[1].reason
    assert "unknown topic 99" in rejected[4].reason
    assert "not a finite number" in rejected[6].reason
    assert "duplicate key" in rejected[9].reason
    arguments = [r for r in records if isinstance(r, ArgumentRecord)]
    assert [(a.aid, a.stance) for a in arguments] == [("argquality:14:10:10", "con")]


def test_a_premise_that_is_its_topics_query_is_left_out(tmp_path: Path) -> None:
    """The released file's line 941: the premise is topic 14's long query, which the loader uses
    as the conclusion. Rejecting it made `argkb load argquality` fail with default options."""
    good = "0.5,False,-4.0,-4.0,-4.0,5,True,-4.0"
    root = _with_arguments(
        tmp_path,
        f"14,1,10,should the death penalty be allowed?,{good}\n"
        f"14,2,11,The death penalty deters crime.,{good}\n",
    )
    records = list(argquality.read([root]))
    assert not [r for r in records if isinstance(r, Rejected)]
    left_out = [r for r in records if isinstance(r, LeftOut)]
    assert [(r.where, r.kind) for r in left_out] == [
        (f"{root}/{ARGUMENTS}:line 2", "premise is the query")
    ]
    assert "topic 14's query" in left_out[0].reason
    arguments = [r for r in records if isinstance(r, ArgumentRecord)]
    assert [a.aid for a in arguments] == ["argquality:14:11:2"]
    # no source for a discussion whose only row was left out
    sources = [r.sid for r in records if isinstance(r, SourceRecord)]
    assert sources == ["argquality:discussion:11"]


def test_bad_topic_row_is_rejected_and_its_arguments_too(tmp_path: Path) -> None:
    root = _with_arguments(tmp_path, "2,1,10,A premise,0.5,True,0.1,0.2,0.3,2,True,0.4\n")
    (root / TOPICS).write_text(
        "Topic ID,Category,Long Query,Short Query\ntwo,Economy,Is UBI good?,UBI\n",
        encoding="utf-8",
    )
    rejected = [r for r in argquality.read([root]) if isinstance(r, Rejected)]
    assert [(r.where, r.field) for r in rejected] == [
        (f"{root}/{TOPICS}:line 2", "Topic ID"),
        (f"{root}/{ARGUMENTS}:line 2", "Topic ID"),
    ]


def test_missing_column_raises(tmp_path: Path) -> None:
    root = tmp_path / "argquality"
    root.mkdir()
    shutil.copy(FIXTURE / TOPICS, root / TOPICS)
    (root / ARGUMENTS).write_text(HEADER.replace(",Stance", ""), encoding="utf-8")
    with pytest.raises(LoadError) as err:
        list(argquality.read([root]))
    assert err.value.field == "Stance"


def test_missing_topics_file_raises(tmp_path: Path) -> None:
    shutil.copy(FIXTURE / ARGUMENTS, tmp_path / ARGUMENTS)
    with pytest.raises(LoadError, match=r"need exactly one \*topics.csv; found none"):
        list(argquality.read([tmp_path]))
    with pytest.raises(LoadError, match="no such file"):
        list(argquality.read([tmp_path / "missing"]))


def test_load_judgements_groups_premises_by_topic() -> None:
    judgements = argquality.load_judgements(FIXTURE)
    assert sorted(judgements.topics) == [1, 14]
    topic = judgements.topics[14]
    assert (topic.category, topic.long_query, topic.short_query) == (
        "Politics",
        DEATH_PENALTY,
        "Death Penalty",
    )
    premises = judgements.premises[14]
    assert [p.aid for p in premises] == [
        "argquality:14:1349:3",
        "argquality:14:2250:3",
        "argquality:14:2250:4",
    ]
    assert premises[1].stance == "con"
    assert premises[1].relevance == pytest.approx(-0.13387323355795333)
    assert premises[2].is_argument is False
    assert [p.argument_id for p in judgements.premises[1]] == [7]
    assert judgements.rejected == ()
