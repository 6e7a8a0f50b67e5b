"""Unit tests for the Webis SIGIR-19 loader, on tests/fixtures/sigir19 (written for argkb)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from argkb.errors import LoadError
from argkb.loaders import FORMATS, reader, sigir19
from argkb.loaders.records import ArgumentRecord, LeftOut, Rejected, SourceRecord, UnitRef

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "sigir19"
HEADER = (
    "Topic ID,Discussion ID,Argument ID,Is Argument?,Stance,Relevance,Logical Quality,"
    "Rhetorical Quality,Dialectical Quality,Conclusion,Premise,Comment\n"
)
GOOD = "0002,00000900,00000001,True,Pro,3,3,3,3,Homework should go,Children need rest.,\n"
HOMEWORK = (
    "Pupils who spend their evenings on worksheets lose time for sleep, sport and family, and "
    "studies find little gain from homework in primary school."
)


def _with_arguments(tmp_path: Path, rows: str | bytes) -> Path:
    root = tmp_path / "sigir19"
    root.mkdir()
    shutil.copy(FIXTURE / "topics.csv", root / "topics.csv")
    data = rows if isinstance(rows, bytes) else rows.encode("utf-8")
    (root / "arguments.csv").write_bytes(HEADER.encode() + data)
    return root


def _with_topics(tmp_path: Path, rows: str) -> Path:
    root = tmp_path / "sigir19"
    root.mkdir()
    (root / "topics.csv").write_text(
        "Topic ID,Biased,Annotator Stance,Thesis,Description,Query\n" + rows, encoding="utf-8"
    )
    (root / "arguments.csv").write_text(HEADER + GOOD, encoding="utf-8")
    return root


def test_the_format_is_registered() -> None:
    assert "sigir19" in FORMATS
    assert reader("sigir19") is sigir19.read


def test_fixture_gives_exactly_these_records() -> None:
    records = list(sigir19.read([FIXTURE]))
    assert records[:2] == [
        SourceRecord(
            "sigir19:discussion:101", (("discussion_id", 101),), f"{FIXTURE}/arguments.csv:line 2"
        ),
        ArgumentRecord(
            aid="sigir19:101:1",
            conclusion=UnitRef("Homework should be abolished"),
            premises=(UnitRef(HOMEWORK),),
            stance="pro",
            source="sigir19:discussion:101",
            properties=(
                ("discussion_id", 101),
                ("argument_id", 1),
                ("judgements", 2),
                ("topic_ids", "2,12"),
                ("is_argument", True),
                ("relevance", 4),
                ("relevance_by_topic", "2:4,12:3"),
                ("logical", 3.5),
                ("rhetorical", 2.5),
                ("dialectical", 3.5),
                ("comment", "repetitive"),
            ),
            where=f"{FIXTURE}/arguments.csv:line 2",
        ),
    ]
    arguments = [r for r in records if isinstance(r, ArgumentRecord)]
    # the argument judged for topics 2 and 12 is one record; the last row is left out
    assert [(r.aid, r.stance, r.conclusion.text) for r in arguments] == [
        ("sigir19:101:1", "pro", "Homework should be abolished"),
        ("sigir19:101:2", "con", "Homework should be abolished"),
        ("sigir19:102:3", "unknown", "Homework"),
        ("sigir19:103:1", "con", "Homework is useful"),
        ("sigir19:201:4", "con", "School uniforms are a good idea"),
    ]
    spam = dict(arguments[1].properties)
    assert spam["is_argument"] is False
    assert spam["relevance"] == -2
    assert spam["logical"] == -2.0
    assert "comment" not in spam  # "None" is no comment
    assert dict(arguments[2].properties)["comment"] == "sehr kurz"
    assert [r.sid for r in records if isinstance(r, SourceRecord)] == [
        "sigir19:discussion:101",
        "sigir19:discussion:102",
        "sigir19:discussion:103",
        "sigir19:discussion:201",
    ]
    [left_out] = [r for r in records if isinstance(r, LeftOut)]
    assert left_out.where == f"{FIXTURE}/arguments.csv:line 8"
    assert left_out.kind == "premise is the conclusion"
    assert not [r for r in records if isinstance(r, Rejected)]


def test_judgements_keep_every_row_and_pair_topics_into_issues() -> None:
    data = sigir19.load_judgements(FIXTURE)
    assert sorted(data.topics) == [2, 4, 12, 14]
    assert data.topics[12].thesis == "Homework is useful."
    assert data.topics[2].biased and not data.topics[12].biased
    rows = {t: [(j.aid, j.relevance) for j in js] for t, js in data.judgements.items()}
    assert rows == {
        2: [("sigir19:101:1", 4), ("sigir19:101:2", -2), ("sigir19:102:3", 2)],
        12: [("sigir19:101:1", 3), ("sigir19:103:1", 1)],
        4: [("sigir19:201:4", 3)],
        14: [("sigir19:202:1", 1)],
    }
    # 2 and 12 share a judged argument; 4 and 14 share the words of their queries
    assert data.issues == {2: 2, 4: 4, 12: 2, 14: 4}
    assert data.rejected == ()


def test_issues_pair_each_biased_topic_with_one_neutral_topic() -> None:
    topics = {
        1: sigir19.Topic(1, True, "", "", "", "god doesn't exist"),
        3: sigir19.Topic(3, True, "", "", "", "religion is unnecessary"),
        5: sigir19.Topic(5, True, "", "", "", "ban plastic bags"),
        21: sigir19.Topic(21, False, "", "God exists.", "", "existence of god"),
        28: sigir19.Topic(28, False, "", "", "", "religion necessary"),
        30: sigir19.Topic(30, False, "", "", "", "religion and god"),
    }
    issues = sigir19.topic_issues(topics, {})
    # "religion and god" shares a word with both, but each biased topic gets one partner
    assert issues == {1: 1, 3: 3, 5: 5, 21: 1, 28: 3, 30: 30}


@pytest.mark.parametrize(
    ("row", "field", "reason"),
    [
        ("0002,900,1,True,Maybe,3,3,3,3,C,P,\n", "Stance", "unknown stance 'Maybe'"),
        ("0002,900,1,True,Pro,5,3,3,3,C,P,\n", "Relevance", "expected -2 or 1 to 4, got '5'"),
        ("0002,900,1,True,Pro,0,3,3,3,C,P,\n", "Relevance", "got '0'"),
        ("0002,900,1,True,Pro,3,3.5,3,3,C,P,\n", "Logical Quality", "got '3.5'"),
        ("0002,900,1,True,Pro,,3,3,3,C,P,\n", "Relevance", "missing or empty"),
        ("0002,900,1,yes,Pro,3,3,3,3,C,P,\n", "Is Argument?", "expected True or False"),
        ("0099,900,1,True,Pro,3,3,3,3,C,P,\n", "Topic ID", "unknown topic 99"),
        ("0002,abc,1,True,Pro,3,3,3,3,C,P,\n", "Discussion ID", "not a non-negative integer"),
        ("0002,900,-1,True,Pro,3,3,3,3,C,P,\n", "Argument ID", "not a non-negative integer"),
        ("0002,900,1,True,Pro,3,3,3,3,,P,\n", "Conclusion", "missing or empty"),
        ("0002,900,1,True,Pro,3,3,3,3,C,,\n", "Premise", "missing or empty"),
        # a row of another width than the header: an unquoted comma, a lost field
        ("0002,900,1,True,Pro,3,3,3,3,C,P\n", "<columns>", "11 fields, the header has 12"),
        ("0002,900,1,True,Pro,3,3,3,3,C,P,,X\n", "<columns>", "13 fields, the header has 12"),
    ],
)
def test_a_bad_row_is_one_rejected_record_naming_line_and_field(
    tmp_path: Path, row: str, field: str, reason: str
) -> None:
    root = _with_arguments(tmp_path, GOOD.replace("00000900", "00000800") + row + GOOD)
    records = list(sigir19.read([root]))
    [problem] = [r for r in records if isinstance(r, Rejected)]
    assert (problem.where, problem.field) == (f"{root}/arguments.csv:line 3", field)
    assert reason in problem.reason
    assert "\n" not in str(problem)
    # the good rows around it still come
    aids = [r.aid for r in records if isinstance(r, ArgumentRecord)]
    assert aids == ["sigir19:800:1", "sigir19:900:1"]


def test_a_repeated_judgement_of_one_topic_is_rejected(tmp_path: Path) -> None:
    root = _with_arguments(tmp_path, GOOD + GOOD)
    [problem] = [r for r in sigir19.read([root]) if isinstance(r, Rejected)]
    assert problem.where == f"{root}/arguments.csv:line 3"
    assert problem.field == "Argument ID"
    assert f"first at {root}/arguments.csv:line 2" in problem.reason


@pytest.mark.parametrize(
    ("second", "field"),
    [
        ("0012,900,1,True,Pro,3,3,3,3,Homework should go,Children need sleep.,\n", "Premise"),
        ("0012,900,1,True,Pro,3,3,3,3,Homework must go,Children need rest.,\n", "Conclusion"),
        ("0012,900,1,True,Con,3,3,3,3,Homework should go,Children need rest.,\n", "Stance"),
    ],
)
def test_an_argument_judged_twice_with_another_text_is_rejected(
    tmp_path: Path, second: str, field: str
) -> None:
    root = _with_arguments(tmp_path, GOOD + second)
    records = list(sigir19.read([root]))
    [problem] = [r for r in records if isinstance(r, Rejected)]
    assert (problem.where, problem.field) == (f"{root}/arguments.csv:line 3", field)
    assert f"was read at {root}/arguments.csv:line 2" in problem.reason
    [argument] = [r for r in records if isinstance(r, ArgumentRecord)]
    assert dict(argument.properties)["topic_ids"] == "2"  # the rejected row is no judgement
    data = sigir19.load_judgements(root)
    assert [str(r) for r in data.rejected] == [str(problem)]
    assert data.judgements[12] == ()


def test_bytes_that_are_not_utf8_reject_only_their_row(tmp_path: Path) -> None:
    bad = b"0002,900,2,True,Pro,3,3,3,3,C,P,caf\xe9\n"
    root = _with_arguments(tmp_path, GOOD.encode() + bad)
    records = list(sigir19.read([root]))
    [problem] = [r for r in records if isinstance(r, Rejected)]
    assert (problem.where, problem.field) == (f"{root}/arguments.csv:line 3", "Comment")
    assert "not UTF-8" in problem.reason


@pytest.mark.parametrize(
    ("row", "field", "reason"),
    [
        ("0002,maybe,,,,homework\n", "Biased", "expected True or False"),
        ("0002,True,,,,\n", "Query", "missing or empty"),
        ("x2,True,,,,homework\n", "Topic ID", "not a non-negative integer"),
    ],
)
def test_a_bad_topic_is_rejected_and_its_judgements_with_it(
    tmp_path: Path, row: str, field: str, reason: str
) -> None:
    root = _with_topics(tmp_path, row)
    records = list(sigir19.read([root]))
    problems = [r for r in records if isinstance(r, Rejected)]
    assert (problems[0].where, problems[0].field) == (f"{root}/topics.csv:line 2", field)
    assert reason in problems[0].reason
    # the judgement of the topic that was not read names the unknown topic
    assert (problems[1].where, problems[1].field) == (f"{root}/arguments.csv:line 2", "Topic ID")
    assert not [r for r in records if isinstance(r, ArgumentRecord)]


def test_a_duplicate_topic_is_rejected(tmp_path: Path) -> None:
    root = _with_topics(tmp_path, "0002,True,,,,homework\n0002,False,,,,homework\n")
    [problem] = [r for r in sigir19.read([root]) if isinstance(r, Rejected)]
    assert (problem.where, problem.field) == (f"{root}/topics.csv:line 3", "Topic ID")
    assert f"duplicate id (first at {root}/topics.csv:line 2)" in problem.reason


def test_missing_files_and_columns_raise_load_errors(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match=r"need exactly one \*arguments.csv; found none"):
        list(sigir19.read([FIXTURE / "topics.csv"]))
    with pytest.raises(LoadError, match="no such file or directory"):
        list(sigir19.read([tmp_path / "nothing"]))
    root = _with_arguments(tmp_path, GOOD)
    text = (root / "arguments.csv").read_text(encoding="utf-8").replace("Premise,", "Text,")
    (root / "arguments.csv").write_text(text, encoding="utf-8")
    with pytest.raises(LoadError, match="Premise") as err:
        list(sigir19.read([root]))
    assert "missing column" in str(err.value)
    assert "\n" not in str(err.value)
