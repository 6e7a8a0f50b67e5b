"""A CSV row with more or fewer fields than its header is one rejected record (field
``<columns>``) in every CSV loader, not a row whose extra value is silently dropped or whose
missing one reads as empty; the good rows around it still load. Fixtures are written here."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from argkb.loaders import argkp, argquality, argrank, sigir19
from argkb.loaders.common import csv_rows, csv_table
from argkb.loaders.records import ArgumentRecord, LinkRecord, Rejected, UnitRecord

TOPIC = "We should abandon the use of school uniform"


def _rejected(records: Sequence[object]) -> list[Rejected]:
    return [r for r in records if isinstance(r, Rejected)]


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_argkp_arguments_row_with_an_extra_or_a_missing_field_is_rejected(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "arguments_dev.csv",
        "arg_id,argument,topic,stance\n"
        f"arg_4_0,Uniforms cost money.,{TOPIC},1\n"
        f"arg_4_1,Extra col row.,{TOPIC},1,EXTRA\n"
        f"arg_4_2,Short row.,{TOPIC}\n"
        f'arg_4_3,"Quoted, with a comma.",{TOPIC},-1\n',
    )
    records = list(argkp.read([path]))
    extra, short = _rejected(records)
    assert (extra.where, extra.field) == (f"{tmp_path}/arguments_dev.csv:line 3", "<columns>")
    assert extra.reason == "5 fields, the header has 4 (first extra value 'EXTRA')"
    assert (short.where, short.field) == (f"{tmp_path}/arguments_dev.csv:line 4", "<columns>")
    assert "3 fields, the header has 4" in short.reason and "'stance'" in short.reason
    aids = [r.aid for r in records if isinstance(r, ArgumentRecord)]
    assert aids == ["argkp:arg_4_0", "argkp:arg_4_3"]


def test_argkp_labels_and_key_points_rows_are_checked_too(tmp_path: Path) -> None:
    _write(tmp_path / "arguments_dev.csv", f"arg_id,argument,topic,stance\na1,Text.,{TOPIC},1\n")
    _write(
        tmp_path / "key_points_dev.csv",
        f"key_point_id,key_point,topic,stance\nk1,Point.,{TOPIC},1\nk2,Other.,{TOPIC},1,,\n",
    )
    _write(tmp_path / "labels_dev.csv", "arg_id,key_point_id,label\na1,k1,1\na1,k1,1,x\n")
    records = list(argkp.read([tmp_path]))
    assert [(r.where, r.field) for r in _rejected(records)] == [
        (f"{tmp_path}/key_points_dev.csv:line 3", "<columns>"),
        (f"{tmp_path}/labels_dev.csv:line 3", "<columns>"),
    ]
    assert "6 fields, the header has 4" in _rejected(records)[0].reason
    assert sum(isinstance(r, UnitRecord) for r in records) == 1
    assert sum(isinstance(r, LinkRecord) for r in records) == 1


ARGQUALITY_HEADER = (
    "Topic ID,Argument ID,Discussion ID,Premise,Relevance,Is Argument?,Rhetorical Quality,"
    "Logical Quality,Dialectical Quality,Text Length,Stance,Combined Quality\n"
)
ARGQUALITY_ROW = "1,9,18019,A premise here.,0.5,True,0.1,0.2,0.3,3,True,0.4"


def test_argquality_row_with_an_extra_field_is_rejected(tmp_path: Path) -> None:
    _write(
        tmp_path / "webis-argquality20-topics.csv",
        "Topic ID,Category,Long Query,Short Query\n1,Economy,Should we tax meat?,Meat tax\n",
    )
    _write(
        tmp_path / "webis-argquality20-arguments.csv",
        ARGQUALITY_HEADER
        + ARGQUALITY_ROW
        + "\n"
        + ARGQUALITY_ROW.replace(",9,", ",10,")
        + ",EXTRA\n"
        + ARGQUALITY_ROW.replace(",9,", ",11,").rsplit(",", 1)[0]
        + "\n",
    )
    records = list(argquality.read([tmp_path]))
    rejected = _rejected(records)
    assert [(r.where, r.field) for r in rejected] == [
        (f"{tmp_path}/webis-argquality20-arguments.csv:line 3", "<columns>"),
        (f"{tmp_path}/webis-argquality20-arguments.csv:line 4", "<columns>"),
    ]
    assert "13 fields, the header has 12 (first extra value 'EXTRA')" in rejected[0].reason
    assert "11 fields, the header has 12" in rejected[1].reason
    assert [r.aid for r in records if isinstance(r, ArgumentRecord)] == ["argquality:1:18019:9"]


SIGIR_TOPICS = (
    "Topic ID,Biased,Annotator Stance,Thesis,Description,Query\n"
    "0004,False,,School uniforms are a good idea.,Uniforms.,school uniforms\n"
)
SIGIR_HEADER = (
    "Topic ID,Discussion ID,Argument ID,Is Argument?,Stance,Relevance,Logical Quality,"
    "Rhetorical Quality,Dialectical Quality,Conclusion,Premise,Comment\n"
)
SIGIR_ROW = "0004,00000201,00000009,True,Pro,3,3,3,3,School uniforms are a good idea,A premise.,"


def test_sigir19_row_with_an_extra_field_is_rejected(tmp_path: Path) -> None:
    _write(tmp_path / "topics.csv", SIGIR_TOPICS)
    _write(
        tmp_path / "arguments.csv",
        SIGIR_HEADER
        + SIGIR_ROW
        + "\n"
        + SIGIR_ROW.replace("00000009", "00000010").replace("A premise.", "Extra column.")
        + ",EXTRA\n",
    )
    records = list(sigir19.read([tmp_path]))
    [problem] = _rejected(records)
    assert (problem.where, problem.field) == (f"{tmp_path}/arguments.csv:line 3", "<columns>")
    assert "13 fields, the header has 12 (first extra value 'EXTRA')" in problem.reason
    assert [r.aid for r in records if isinstance(r, ArgumentRecord)] == ["sigir19:201:9"]


def test_argrank_source_list_row_with_an_extra_field_is_rejected(tmp_path: Path) -> None:
    graph = _write(tmp_path / "groundtruth.json", json.dumps({"nodes": [9], "edges": []}))
    sources = _write(
        tmp_path / "unit-source-list.csv",
        "Argument Unit ID,Corpus Name,AIFdb Unit ID,AIFdb Map ID  \n"
        "9,Araucaria,901,40\n"
        "9,Araucaria,902,41,EXTRA\n"
        "9,Araucaria,903\n",
    )
    records = list(argrank.read([graph, sources]))
    rejected = _rejected(records)
    assert [(r.where, r.field) for r in rejected] == [
        (f"{tmp_path}/unit-source-list.csv:line 3", "<columns>"),
        (f"{tmp_path}/unit-source-list.csv:line 4", "<columns>"),
    ]
    assert rejected[0].reason == "5 fields, the header has 4 (first extra value 'EXTRA')"
    [unit] = [r for r in records if isinstance(r, UnitRecord)]
    assert dict(unit.properties)["aifdb_unit_ids"] == "901"  # not the rejected 902 and 903


def test_csv_table_ragged_keeps_uneven_rows_for_the_reader_to_realign(tmp_path: Path) -> None:
    path = _write(tmp_path / "t.csv", "a,b\n1,2\n1,2,3\n1\n")
    strict = [row for _, _, row in csv_table(path, ("a",))]
    assert strict[0] == ["1", "2"]
    assert [(r.field, r.reason) for r in strict[1:] if isinstance(r, Rejected)] == [
        ("<columns>", "3 fields, the header has 2 (first extra value '3')"),
        ("<columns>", "1 fields, the header has 2 (nothing from column 'b' on)"),
    ]
    assert [row for _, _, row in csv_table(path, ("a",), ragged=True)] == [
        ["1", "2"],
        ["1", "2", "3"],
        ["1"],
    ]
    rows = [row for _, row in csv_rows(path, ("a",))]
    assert rows[0] == {"a": "1", "b": "2"}
    assert all(isinstance(row, Rejected) for row in rows[1:])


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_quoted_field_over_two_lines_counts_once(tmp_path: Path, newline: str) -> None:
    path = _write(tmp_path / "t.csv", f'a,b{newline}1,"two{newline}lines"{newline}')
    [(where, row)] = list(csv_rows(path, ("a", "b")))
    assert where == f"{tmp_path}/t.csv:line 2" and not isinstance(row, Rejected) and row["a"] == "1"
