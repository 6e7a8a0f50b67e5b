"""Unit tests for the IBM ArgKP-2021 loader, on the hand-written fixture in tests/fixtures/argkp."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from argkb.errors import LoadError
from argkb.loaders import argkp
from argkb.loaders.records import (
    ArgumentRecord,
    LinkRecord,
    Rejected,
    SourceRecord,
    UnitRecord,
    UnitRef,
)

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "argkp"
UNIFORM = "We should abandon the use of school uniform"
UNIFORM_SOURCE = "argkp:dev:we-should-abandon-the-use-of-school-uniform"
SUICIDE = "Assisted suicide should be a criminal offence"


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "argkp"
    shutil.copytree(FIXTURE, root)
    return root


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_dev_split_gives_exactly_these_records() -> None:
    bullying = UnitRef("Having a school uniform can reduce bullying.")
    expressing = UnitRef("Uniforms stop students from expressing themselves.")
    key_point = UnitRef("School uniform reduces bullying")
    assert list(argkp.read([FIXTURE], split="dev")) == [
        SourceRecord(
            UNIFORM_SOURCE,
            (("topic", UNIFORM), ("split", "dev")),
            f"{FIXTURE}/arguments_dev.csv:line 2",
        ),
        ArgumentRecord(
            aid="argkp:arg_4_0",
            conclusion=UnitRef(UNIFORM),
            premises=(bullying,),
            stance="con",
            source=UNIFORM_SOURCE,
            properties=(("split", "dev"), ("arg_id", "arg_4_0")),
            where=f"{FIXTURE}/arguments_dev.csv:line 2",
        ),
        ArgumentRecord(
            aid="argkp:arg_4_1",
            conclusion=UnitRef(UNIFORM),
            premises=(expressing,),
            stance="pro",
            source=UNIFORM_SOURCE,
            properties=(("split", "dev"), ("arg_id", "arg_4_1")),
            where=f"{FIXTURE}/arguments_dev.csv:line 3",
        ),
        UnitRecord(
            unit=key_point,
            labels=("KeyPoint",),
            properties=(
                ("kp_id", "kp_4_0"),
                ("topic", UNIFORM),
                ("stance", "con"),
                ("split", "dev"),
            ),
            source=UNIFORM_SOURCE,
            where=f"{FIXTURE}/key_points_dev.csv:line 2",
        ),
        LinkRecord(
            start=bullying,
            end=key_point,
            type="MATCHES_KEY_POINT",
            properties=(("label", 1), ("arg_id", "arg_4_0"), ("kp_id", "kp_4_0")),
            where=f"{FIXTURE}/labels_dev.csv:line 2",
        ),
        LinkRecord(
            start=expressing,
            end=key_point,
            type="MATCHES_KEY_POINT",
            properties=(("label", 0), ("arg_id", "arg_4_1"), ("kp_id", "kp_4_0")),
            where=f"{FIXTURE}/labels_dev.csv:line 3",
        ),
    ]


def test_all_splits_are_read_train_first() -> None:
    records = list(argkp.read([FIXTURE]))
    counts = Counter(type(r).__name__ for r in records)
    assert counts == {
        "SourceRecord": 3,
        "ArgumentRecord": 6,
        "UnitRecord": 5,
        "LinkRecord": 7,
    }
    splits = [dict(r.properties)["split"] for r in records if isinstance(r, ArgumentRecord)]
    assert splits == ["train"] * 4 + ["dev"] * 2


def test_quoted_fields_keep_commas_and_quotes() -> None:
    arguments = [r for r in argkp.read([FIXTURE], split="train") if isinstance(r, ArgumentRecord)]
    texts = [r.premises[0].text for r in arguments]
    assert texts[0] == "People should be able to end their suffering, with dignity."
    assert texts[1] == 'A patient should decide when they have had enough "care".'
    assert {r.conclusion.text for r in arguments} == {SUICIDE, "Homeschooling should be banned"}


def test_explicit_files_read_only_what_is_given() -> None:
    records = list(argkp.read([FIXTURE / "arguments_dev.csv"]))
    assert [type(r) for r in records] == [SourceRecord, ArgumentRecord, ArgumentRecord]


def test_bad_argument_rows_are_rejected_and_reading_goes_on(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "arguments_dev.csv",
        "arg_id,argument,topic,stance\n"
        'arg_1,"",Topic,1\n'
        "arg_2,Text two,Topic,0\n"
        "arg_3,Text three,Topic\n"
        "arg_4,Text four,Topic,-1\n"
        "arg_4,Text four again,Topic,-1\n"
        '"arg_5","A premise\nover two lines",Topic,+1\n'
        ",Text six,Topic,1\n",
    )
    records = list(argkp.read([path]))
    rejected = [r for r in records if isinstance(r, Rejected)]
    assert [(r.where, r.field) for r in rejected] == [
        (f"{tmp_path}/arguments_dev.csv:line 2", "argument"),
        (f"{tmp_path}/arguments_dev.csv:line 3", "stance"),
        (f"{tmp_path}/arguments_dev.csv:line 4", "<columns>"),
        (f"{tmp_path}/arguments_dev.csv:line 6", "arg_id"),
        (f"{tmp_path}/arguments_dev.csv:line 9", "arg_id"),
    ]
    assert "unknown stance '0'" in rejected[1].reason
    assert "3 fields, the header has 4 (nothing from column 'stance' on)" in rejected[2].reason
    assert (
        f"duplicate id 'arg_4' (first at {tmp_path}/arguments_dev.csv:line 5)" in rejected[3].reason
    )
    arguments = [r for r in records if isinstance(r, ArgumentRecord)]
    assert [(a.aid, a.stance, a.where) for a in arguments] == [
        ("argkp:arg_4", "con", f"{tmp_path}/arguments_dev.csv:line 5"),
        ("argkp:arg_5", "pro", f"{tmp_path}/arguments_dev.csv:line 7"),
    ]


def test_labels_with_unknown_ids_or_values_are_rejected(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _write(
        root / "labels_dev.csv",
        "arg_id,key_point_id,label\n"
        "arg_4_0,kp_4_0,1\n"
        "arg_9_9,kp_4_0,1\n"
        "arg_4_1,kp_9_9,0\n"
        "arg_4_1,kp_4_0,yes\n"
        "arg_4_0,kp_4_0,0\n"
        "arg_x,kp_4_0,1\n",
    )
    records = list(argkp.read([root], split="dev"))
    rejected = [r for r in records if isinstance(r, Rejected)]
    assert [(r.where, r.field) for r in rejected] == [
        (f"{root}/labels_dev.csv:line 3", "arg_id"),
        (f"{root}/labels_dev.csv:line 4", "key_point_id"),
        (f"{root}/labels_dev.csv:line 5", "label"),
        (f"{root}/labels_dev.csv:line 6", "arg_id"),
        (f"{root}/labels_dev.csv:line 7", "arg_id"),
    ]
    assert rejected[0].reason == "unknown argument id 'arg_9_9'"
    assert rejected[1].reason == "unknown key point id 'kp_9_9'"
    assert "labelled twice" in rejected[3].reason
    links = [r for r in records if isinstance(r, LinkRecord)]
    assert [dict(link.properties)["arg_id"] for link in links] == ["arg_4_0"]


def test_bad_key_point_row_is_rejected(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _write(
        root / "key_points_dev.csv",
        "key_point_id,key_point,topic,stance\n"
        f"kp_4_0,School uniform reduces bullying,{UNIFORM},-1\n"
        f"kp_4_1,,{UNIFORM},1\n"
        f"kp_4_2,Uniforms are cheap,{UNIFORM},pro\n",
    )
    rejected = [r for r in argkp.read([root], split="dev") if isinstance(r, Rejected)]
    assert [(r.where, r.field) for r in rejected] == [
        (f"{root}/key_points_dev.csv:line 3", "key_point"),
        (f"{root}/key_points_dev.csv:line 4", "stance"),
    ]


def test_missing_column_raises(tmp_path: Path) -> None:
    path = _write(tmp_path / "arguments_dev.csv", "arg_id,argument,topic\narg_1,Text,Topic\n")
    with pytest.raises(LoadError) as err:
        list(argkp.read([path]))
    assert err.value.field == "stance"
    assert "missing column" in err.value.reason


def test_missing_file_or_split_raises(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="no such file"):
        list(argkp.read([tmp_path / "nowhere"]))
    with pytest.raises(LoadError, match="no split 'test'; found: train, dev"):
        list(argkp.read([FIXTURE], split="test"))
    with pytest.raises(LoadError, match="no arguments_/key_points_/labels_"):
        list(argkp.read([tmp_path]))


def test_labels_without_their_key_points_raise(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "key_points_dev.csv").unlink()
    with pytest.raises(LoadError, match="labels need"):
        list(argkp.read([root]))


def test_a_row_that_is_not_utf8_is_rejected_and_the_rest_loads(tmp_path: Path) -> None:
    path = tmp_path / "arguments_dev.csv"
    path.write_bytes(
        b"arg_id,argument,topic,stance\narg_1,Caf\xe9,Topic,1\narg_2,Good text,Topic,1\n"
    )
    records = list(argkp.read([path]))
    assert [r for r in records if isinstance(r, Rejected)] == [
        Rejected(
            f"{tmp_path}/arguments_dev.csv:line 2",
            "argument",
            "not UTF-8 (bytes that are no UTF-8 text)",
        )
    ]
    assert [r.aid for r in records if isinstance(r, ArgumentRecord)] == ["argkp:arg_2"]


def test_a_field_longer_than_the_csv_default_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "arguments_dev.csv"
    long_text = "word " * 40_000  # 200,000 characters: csv's default limit is 131,072
    path.write_text(
        f"arg_id,argument,topic,stance\narg_1,{long_text},Topic,1\narg_2,Short,Topic,1\n",
        encoding="utf-8",
    )
    records = [r for r in argkp.read([path]) if isinstance(r, ArgumentRecord)]
    assert [len(r.premises[0].text) for r in records] == [len(long_text.strip()), 5]


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "arguments_dev.csv"
    path.write_bytes(b"\xef\xbb\xbfarg_id,argument,topic,stance\narg_1,Text,Topic,1\n")
    assert [type(r) for r in argkp.read([path])] == [SourceRecord, ArgumentRecord]


def test_load_split_gives_the_evaluation_view() -> None:
    split = argkp.load_split(FIXTURE, "train")
    assert split.split == "train"
    assert split.topics == (SUICIDE, "Homeschooling should be banned")
    assert {key: [a.arg_id for a in args] for key, args in split.arguments.items()} == {
        (SUICIDE, "con"): ["arg_0_0", "arg_0_1"],
        (SUICIDE, "pro"): ["arg_0_2"],
        ("Homeschooling should be banned", "pro"): ["arg_1_0"],
    }
    assert [kp.kp_id for kp in split.key_points[(SUICIDE, "con")]] == ["kp_0_0", "kp_0_1"]
    assert len(split.matches) == 5
    assert split.clusters() == {
        "kp_0_0": ("arg_0_0",),
        "kp_0_1": ("arg_0_1",),
        "kp_0_2": ("arg_0_2",),
        "kp_1_0": ("arg_1_0",),
    }
    assert split.rejected == ()


def test_source_id_is_a_slug_of_the_normalised_topic() -> None:
    assert argkp.source_id("dev", "  We should ban  Human cloning. ") == (
        "argkp:dev:we-should-ban-human-cloning"
    )
