"""Messages about bad input are one line that says what is wrong (issue 13): the JSON parser's
``------^`` marker, an empty or wrong directory, an unterminated CSV quote; and the driver's
errors become one line through the one shared translation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from argkb.errors import DatabaseError, DatabaseUnavailable, LoadError
from argkb.ingest import content_hash
from argkb.loaders import argkp, argsme, jsonl
from argkb.loaders.records import ArgumentRecord, Rejected

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GOOD = {"id": "a1", "conclusion": "C one", "premises": [{"text": "P one", "stance": "PRO"}]}


@pytest.mark.parametrize(
    "tail",
    ['{"id": ', '{"id": "b", "conclusion": "c\n', '{"id": "b", "conclusion": tru}'],
)
def test_malformed_json_in_a_dump_is_one_line(tmp_path: Path, tail: str) -> None:
    path = tmp_path / "cut.json"
    path.write_text('{"arguments": [' + json.dumps(GOOD) + ", " + tail)
    [problem] = [r for r in argsme.read([path]) if isinstance(r, Rejected)][:1]
    assert problem.field == "<json>" and problem.reason.startswith("malformed JSON after record 0")
    assert (
        "\n" not in str(problem)
        and "------^" not in str(problem)
        and "right here" not in str(problem)
    )


@pytest.mark.parametrize("read", [argsme.read, jsonl.read])
def test_an_empty_directory_is_called_empty(tmp_path: Path, read) -> None:
    with pytest.raises(LoadError, match="empty directory"):
        list(read([tmp_path]))
    (tmp_path / "a.jsonl").write_text(json.dumps(GOOD) + "\n")
    with pytest.raises(LoadError, match="a directory: name the files"):
        list(read([tmp_path]))


def test_content_hash_of_an_empty_directory_says_it_is_empty(tmp_path: Path) -> None:
    # the ingest hashes the inputs of every format first: argrank, argkp ... say it too
    with pytest.raises(LoadError, match="empty directory"):
        content_hash([tmp_path])


def test_an_unterminated_csv_quote_is_named_as_such(tmp_path: Path) -> None:
    folder = tmp_path / "kp"
    folder.mkdir()
    for path in (FIXTURES / "argkp").iterdir():
        (folder / path.name).write_bytes(path.read_bytes())
    arguments = folder / "arguments_train.csv"
    lines = arguments.read_text().splitlines()
    assert lines[2].startswith('arg_0_1,"A patient')
    lines[2] = lines[2].replace('"".",', '"".,', 1)  # the closing quote of the field is gone
    arguments.write_text("\n".join(lines) + "\n")
    records = list(argkp.read([folder]))
    [err] = [r for r in records if isinstance(r, Rejected) and r.field == "<csv>"]
    assert (err.where, err.field) == (f"{arguments}:line 3", "<csv>")
    assert "unterminated quoted field" in err.reason
    # the rows before it are read (an --on-error skip load keeps them), none after it
    aids = {r.aid for r in records if isinstance(r, ArgumentRecord)}
    assert "argkp:arg_0_0" in aids and "argkp:arg_0_1" not in aids


def test_the_driver_s_errors_become_one_line() -> None:
    from neo4j.exceptions import ClientError, IncompleteCommit, ServiceUnavailable, SessionExpired

    from argkb.db.failures import translate

    for err in (
        ServiceUnavailable("Failed to read from defunct connection\nIPv4Address(('127.0.0.1', 1))"),
        IncompleteCommit("Failed to read from defunct connection"),
        SessionExpired("session expired"),
        ConnectionResetError(104, "Connection reset by peer"),
    ):
        known = translate(err, "'argkb load'")
        assert isinstance(known, DatabaseUnavailable)
        message = str(known)
        assert message.startswith("Neo4j stopped answering during 'argkb load'")
        assert "run the same command again" in message and "\n" not in message
    refused = ClientError._hydrate_neo4j(code="Neo.ClientError.Statement.SyntaxError",
                                         message="Invalid input\n  ^")  # fmt: skip
    known = translate(refused, "'argkb embed'")
    assert isinstance(known, DatabaseError) and "\n" not in str(known)
    assert "Neo.ClientError.Statement.SyntaxError" in str(known)
    assert translate(ValueError("mine"), "x") is None


def test_a_pipe_as_input_is_refused_not_read_forever(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "f.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(LoadError, match="not a regular file") as err:
        content_hash([fifo])
    assert err.value.where == str(fifo)
    with pytest.raises(LoadError, match="not a regular file"):
        content_hash([Path("/dev/zero")])


def test_a_whole_file_or_record_is_named_without_a_pseudo_field() -> None:
    # loader errors said "a.json: field '<file>': no such file" (review, session 31)
    from argkb.errors import located

    assert located("a.json", "<file>", "no such file") == "a.json: no such file"
    assert located("a.jsonl:3", "premises", "a dict, not a list") == (
        "a.jsonl:3: field 'premises': a dict, not a list"
    )
    assert str(LoadError("a.zip", "<zip>", "not a readable zip archive")) == (
        "a.zip: not a readable zip archive"
    )
    assert str(Rejected("a.jsonl:2", "<json>", "malformed JSON")) == "a.jsonl:2: malformed JSON"
