"""Skip mode on a real Neo4j (issue 13): no bad record aborts a load; the good records load."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from graphs import load

from argkb.db.schema import init_schema
from argkb.errors import LoadError

pytestmark = pytest.mark.neo4j

GOOD = {"id": "a1", "conclusion": "C one", "premises": [{"text": "P one", "stance": "pro"}]}
BAD_LINES = [
    '{"id": "s1", "conclusion": "C \\ud800", "premises": [{"text": "P", "stance": "pro"}]}',
    json.dumps({**GOOD, "id": "b2", "source": {"id": "d", "pagerank": 2**80}}),
    '{"id": "b3", "conclusion": "C", "premises": [{"text": "P"}], '
    '"source": {"id": "d2", "pagerank": Infinity}}',
    '{"id": "b4", "conclusion": {"text": "C", "id": {"a": 1}}, "premises": [{"text": "P"}]}',
    '{"id": "b5", "conclusion": "C", "premises": ' + "[" * 5000 + "]" * 5000 + "}",
]


@pytest.fixture()
def clean(db, wipe_db):
    wipe_db(db)
    init_schema(db)
    return db


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "bad.jsonl"
    good_last = json.dumps({**GOOD, "id": "z9", "conclusion": "C two"})
    path.write_text("\n".join([json.dumps(GOOD), *BAD_LINES, good_last]) + "\n")
    return path


def test_skip_mode_rejects_each_bad_record_and_loads_the_good_ones(clean, tmp_path: Path) -> None:
    report = tmp_path / "rejected.jsonl"
    summary = load(clean, "jsonl", _file(tmp_path), on_error="skip", reject_report=report)
    assert (summary.arguments, summary.rejected) == (2, len(BAD_LINES))
    aids = clean.execute_query("MATCH (a:Argument) RETURN a.aid AS aid ORDER BY aid").records
    assert [r["aid"] for r in aids] == ["jsonl:a1", "jsonl:z9"]
    entries = [json.loads(line) for line in report.read_text().splitlines()]
    assert [e["where"] for e in entries] == [
        f"{tmp_path}/bad.jsonl:{n}" for n in range(2, 2 + len(BAD_LINES))
    ]
    texts = clean.execute_query("MATCH (u:Unit) RETURN u.text AS t").records
    assert all("?" not in r["t"] and "\ud800" not in r["t"] for r in texts)


def test_fail_mode_stops_at_the_first_bad_record_with_one_line(clean, tmp_path: Path) -> None:
    with pytest.raises(LoadError) as err:
        load(clean, "jsonl", _file(tmp_path))
    assert err.value.where == f"{tmp_path}/bad.jsonl:2" and "\n" not in str(err.value)
    str(err.value).encode("utf-8")


def test_lone_surrogates_in_an_argsme_dump_are_one_line_errors(clean, tmp_path: Path) -> None:
    """Issue 26: the dump loaded ``\\ud800`` and ``\\udbff`` as "?" and lost the file at
    ``\\udc80``; now each is the JSONL reader's one-line error, and skip mode loads the rest."""
    from click.testing import CliRunner

    from argkb.cli import main

    records = [
        '{"id": "s1", "conclusion": "C \\ud800", "premises": [{"text": "P1", "stance": "PRO"}]}',
        '{"id": "s2", "conclusion": "C", "premises": [{"text": "P2 \\udbff", "stance": "CON"}]}',
        '{"id": "s3", "conclusion": "C", "premises": [{"text": "P3 \\udc80", "stance": "PRO"}]}',
        '{"id": "s4", "conclusion": "C four", "premises": [{"text": "P4", "stance": "PRO"}]}',
    ]
    path = tmp_path / "dump.json"
    path.write_text('{"arguments": [' + ",\n".join(records) + "]}")
    runner = CliRunner()
    failed = runner.invoke(main, ["load", "argsme", str(path)])
    assert failed.exit_code == 1
    # the one line: no progress text before it where stderr is not a terminal
    assert failed.output.splitlines() == [
        f"Error: {path}#0 (id s1): field 'conclusion': not UTF-8 text (a lone surrogate)"
    ]
    report = tmp_path / "rejected.jsonl"
    args = ["load", "argsme", str(path), "--on-error", "skip", "--reject-report", str(report)]
    skipped = runner.invoke(main, args)
    assert skipped.exit_code == 0, skipped.output
    entries = [json.loads(line) for line in report.read_text().splitlines()]
    assert [(e["where"], e["field"]) for e in entries] == [
        (f"{tmp_path}/dump.json#0 (id s1)", "conclusion"),
        (f"{tmp_path}/dump.json#1 (id s2)", "premises[0]"),
        (f"{tmp_path}/dump.json#2 (id s3)", "premises[0]"),
    ]
    assert {e["reason"] for e in entries} == {"not UTF-8 text (a lone surrogate)"}
    texts = clean.execute_query("MATCH (u:Unit) RETURN u.text AS t ORDER BY t").records
    assert [r["t"] for r in texts] == ["C four", "P4"]


def _argkp_cut_in_a_quote(tmp_path: Path) -> Path:
    """The fixture's ArgKP train split, its arguments file cut inside line 3's quoted text."""
    folder = tmp_path / "argkp"
    folder.mkdir()
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "argkp"
    for name in ("arguments_train.csv", "key_points_train.csv", "labels_train.csv"):
        (folder / name).write_bytes((fixture / name).read_bytes())
    arguments = folder / "arguments_train.csv"
    lines = arguments.read_text(encoding="utf-8").splitlines()
    arguments.write_text("\n".join([*lines[:2], lines[2][:30]]) + "\n", encoding="utf-8")
    return folder


def test_a_csv_cut_inside_a_quote_is_one_reject_in_skip_mode(clean, tmp_path: Path) -> None:
    folder = _argkp_cut_in_a_quote(tmp_path)
    with pytest.raises(LoadError) as err:  # fail mode: one line, nothing written
        load(clean, "argkp", folder)
    assert err.value.where == f"{folder}/arguments_train.csv:line 3" and err.value.field == "<csv>"
    assert clean.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 0
    report = tmp_path / "rejected.jsonl"
    summary = load(clean, "argkp", folder, on_error="skip", reject_report=report)
    assert summary.arguments == 1  # line 2, the only argument before the cut
    entries = [json.loads(line) for line in report.read_text().splitlines()]
    assert entries[0] == {
        "where": f"{folder}/arguments_train.csv:line 3",
        "field": "<csv>",
        "reason": 'unterminated quoted field: a " opened in this row is never closed',
    }


def test_errors_name_the_whole_path_of_two_files_of_one_name(clean, tmp_path: Path) -> None:
    """``a/x.jsonl`` and ``b/x.jsonl``: the error says which one (it said ``x.jsonl:2``)."""
    paths = []
    for folder, premise in (("a", {"text": "P", "stance": "pro"}), ("b", {"text": "P"})):
        (tmp_path / folder).mkdir()
        path = tmp_path / folder / "x.jsonl"
        record = {"id": f"{folder}1", "conclusion": "C", "premises": [premise]}
        bad = {**record, "id": f"{folder}2", "premises": [{"text": "Q", "stance": "+2"}]}
        path.write_text(json.dumps(record) + "\n" + (json.dumps(bad) if folder == "b" else ""))
        paths.append(path)
    with pytest.raises(LoadError) as err:
        load(clean, "jsonl", *paths)
    assert err.value.where == f"{tmp_path}/b/x.jsonl:2"
    assert str(err.value).startswith(f"{tmp_path}/b/x.jsonl:2: field 'premises[0].stance'")


def test_a_reject_report_that_names_an_input_is_refused_before_reading(
    clean, tmp_path: Path
) -> None:
    # it was opened for writing at the first reject, truncating the file being read (audit)
    path = _file(tmp_path)
    before = path.read_bytes()
    with pytest.raises(LoadError) as err:
        load(clean, "jsonl", path, on_error="skip", reject_report=path)
    assert (err.value.where, err.value.field) == (str(path), "<reject-report>")
    assert "is one of the input files" in err.value.reason
    assert path.read_bytes() == before
    assert clean.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 0
    for report, reason in (
        (tmp_path / "no" / "r.jsonl", "does not exist"),
        (tmp_path, "is a folder"),
    ):
        with pytest.raises(LoadError, match=reason):
            load(clean, "jsonl", path, on_error="skip", reject_report=report)
    # a device is a place to send the report too: /dev/null keeps none (review of session 26)
    summary = load(clean, "jsonl", path, on_error="skip", reject_report=Path("/dev/null"))
    assert (summary.arguments, summary.rejected) == (2, len(BAD_LINES))


def test_a_reject_report_that_fails_mid_load_is_one_error_and_undoes_the_load(
    clean, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the disk fills up: an OSError from the report was a 45-line traceback (audit)
    report = tmp_path / "r.jsonl"
    real_open = Path.open

    def full_disk(self: Path, *args: object, **kwargs: object) -> object:
        if self == report:
            raise OSError(28, "No space left on device")
        return real_open(self, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(Path, "open", full_disk)
    with pytest.raises(LoadError) as err:  # batches of one: the good first record is written
        load(clean, "jsonl", _file(tmp_path), on_error="skip", reject_report=report, batch_size=1)
    assert str(err.value) == (f"{report}: cannot be written: No space left on device")
    assert clean.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 0


def test_an_unreadable_input_is_one_line_and_leaves_the_graph_unchanged(
    clean, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``argkb load`` of a file it may not read ended in a PermissionError traceback."""
    from click.testing import CliRunner

    from argkb.cli import main

    load(clean, "jsonl", _file(tmp_path), on_error="skip", reject_report=tmp_path / "r.jsonl")
    count = "MATCH (n) RETURN count(n) AS n"
    before = clean.execute_query(count).records[0]["n"]
    path = tmp_path / "mine.jsonl"
    path.write_text(json.dumps({**GOOD, "id": "u1", "conclusion": "C unread"}) + "\n")
    real_open = Path.open

    def guarded(self: Path, *args: object, **kwargs: object) -> object:
        if self == path:  # as a file of mode 000 (the tests may run as root)
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(Path, "open", guarded)
    result = CliRunner().invoke(main, ["load", "jsonl", str(path)])
    assert (result.exit_code, result.output.splitlines()) == (
        1, [f"Error: {path}: cannot read: Permission denied"]
    )  # fmt: skip
    assert clean.execute_query(count).records[0]["n"] == before > 0


def test_a_nul_in_a_csv_text_is_one_line_naming_the_column_and_the_graph_stays(
    clean, tmp_path: Path
) -> None:
    """An ArgKP argument with a NUL loaded as given; its error now names file, line and the
    CSV column, and neither mode writes it."""
    import shutil

    from click.testing import CliRunner

    from argkb.cli import main

    load(clean, "jsonl", _file(tmp_path), on_error="skip", reject_report=tmp_path / "r.jsonl")
    count = "MATCH (n) RETURN count(n) AS n"
    before = clean.execute_query(count).records[0]["n"]
    folder = tmp_path / "argkp"
    shutil.copytree(Path(__file__).resolve().parents[1] / "fixtures" / "argkp", folder)
    arguments = folder / "arguments_train.csv"
    arguments.write_bytes(arguments.read_bytes().replace(b"People should", b"Peo\0ple should"))
    runner = CliRunner()
    failed = runner.invoke(main, ["load", "argkp", str(folder)])
    assert (failed.exit_code, failed.output.splitlines()) == (1, [
        f"Error: {arguments}:line 2: field 'argument': control character U+0000 at character 4 "
        "of the text (only tab, line feed and carriage return may be in a text)"
    ])  # fmt: skip
    assert clean.execute_query(count).records[0]["n"] == before > 0
    report = tmp_path / "kp-rejected.jsonl"
    args = ["load", "argkp", str(folder), "--on-error", "skip", "--reject-report", str(report)]
    skipped = runner.invoke(main, args)
    assert skipped.exit_code == 0, skipped.output
    entries = [json.loads(line) for line in report.read_text().splitlines()]
    assert [(e["where"], e["field"]) for e in entries][:1] == [(f"{arguments}:line 2", "argument")]
    texts = clean.execute_query("MATCH (u:Unit) WHERE u.text CONTAINS '\\u0000' RETURN count(u)")
    assert texts.records[0][0] == 0


def test_jsonl_files_joined_with_cat_and_a_map_nested_too_deeply(clean, tmp_path: Path) -> None:
    """Two JSONL files saved with a UTF-8 BOM and joined with ``cat`` failed on the second
    one's BOM ("Unexpected UTF-8 BOM (decode using utf-8-sig)"); they now load as apart. The
    same files joined without a line break, and an AIF map nested 200,000 levels deep (which
    was "malformed JSON: maximum recursion depth exceeded ..."), are one line each naming the
    file (and the line), exit 1, no traceback, the graph unchanged."""
    from click.testing import CliRunner

    from argkb.cli import main

    bom = b"\xef\xbb\xbf"
    first = bom + json.dumps(GOOD).encode()
    second = bom + json.dumps({**GOOD, "id": "a2", "conclusion": "C two"}).encode()
    joined = tmp_path / "joined.jsonl"
    joined.write_bytes(first + b"\n" + second + b"\n")
    runner = CliRunner()
    loaded = runner.invoke(main, ["load", "jsonl", str(joined)])
    assert loaded.exit_code == 0, loaded.output
    aids = clean.execute_query("MATCH (a:Argument) RETURN a.aid AS aid ORDER BY aid").records
    assert [r["aid"] for r in aids] == ["jsonl:a1", "jsonl:a2"]
    count = "MATCH (n) RETURN count(n) AS n"
    before = clean.execute_query(count).records[0]["n"]
    glued = tmp_path / "glued.jsonl"
    glued.write_bytes(json.dumps({**GOOD, "id": "g1"}).encode() + second + b"\n")
    deep = tmp_path / "deep.json"
    deep.write_text('{"nodes": ' + "[" * 200_000 + "]" * 200_000 + ', "edges": []}')
    failed = runner.invoke(main, ["load", "jsonl", str(glued)])
    assert (failed.exit_code, failed.output.splitlines()) == (1, [
        f"Error: {glued}:1: a byte order mark (U+FEFF) inside the file, at "
        f"character {len(json.dumps({**GOOD, 'id': 'g1'})) + 1} of the line, after a whole JSON "
        "value: two files joined without a line break? put each record on a line of its own"
    ])  # fmt: skip
    failed = runner.invoke(main, ["load", "aif", str(deep)])
    assert (failed.exit_code, failed.output.splitlines()) == (1, [
        f"Error: {deep}: nested too deeply: JSON 200,001 levels deep, more than "
        f"Python's parser reads (about {sys.getrecursionlimit():,}); AIF maps nest 2 to 5"
    ])  # fmt: skip
    assert "Traceback" not in failed.output and "RecursionError" not in failed.output
    assert clean.execute_query(count).records[0]["n"] == before > 0
