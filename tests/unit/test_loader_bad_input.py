"""Bad input to the JSON loaders (issue 13): every bad record becomes one :class:`Rejected`
naming file, record and field, and the good records around it still come."""

from __future__ import annotations

import io
import json
import logging
import shutil
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from argkb.loaders import argsme, jsonl
from argkb.loaders.common import MAX_JSON_DEPTH, max_json_depth
from argkb.loaders.records import ArgumentRecord, LeftOut, Rejected

GOOD = {"id": "a1", "conclusion": "C one", "premises": [{"text": "P one", "stance": "PRO"}]}


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _aids(records: list[Any]) -> list[str]:
    return [r.aid for r in records if isinstance(r, ArgumentRecord)]


def _rejected(records: list[Any]) -> list[Rejected]:
    return [r for r in records if isinstance(r, Rejected)]


def test_deeply_nested_value_in_argsme_dump_is_one_rejected_record(tmp_path: Path) -> None:
    deep = json.dumps({**GOOD, "id": "a2"})[:-1] + ', "extra": ' + _nested(3000) + "}"
    last = json.dumps({**GOOD, "id": "a3"})
    path = tmp_path / "deep.json"
    path.write_text('{"arguments": [' + json.dumps(GOOD) + "," + deep + "," + last + "]}")
    records = list(argsme.read([path]))
    assert _aids(records) == ["argsme:a1", "argsme:a3"]
    [problem] = _rejected(records)
    assert problem.where == f"{tmp_path}/deep.json#1"
    assert problem.field.startswith("extra.item.item")
    assert f"deeper than {MAX_JSON_DEPTH} levels" in problem.reason
    assert "\n" not in str(problem)


def test_an_integer_past_64_bits_in_a_dump_costs_no_other_record(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # yajl stopped there ("parse error: integer overflow") and the rest of the file was lost
    deep = json.dumps({**GOOD, "id": "a2"})[:-1] + ', "extra": ' + _nested(3000) + "}"
    big = json.dumps({**GOOD, "id": "a3", "extra": 2**70})
    rest = [json.dumps({**GOOD, "id": f"a{n}"}) for n in (4, 5)]
    path = tmp_path / "big.json"
    path.write_text('{"arguments": [' + ",".join([json.dumps(GOOD), deep, big, *rest]) + "]}")
    with caplog.at_level(logging.INFO, logger=argsme.log.name):  # whatever -v set before
        records = list(argsme.read([path]))
    assert _aids(records) == ["argsme:a1", "argsme:a3", "argsme:a4", "argsme:a5"]
    [problem] = _rejected(records)  # the too deep one, said once though read twice
    assert problem.where == f"{path}#1" and problem.field.startswith("extra.item")
    # the second, slower reading is said (argkb -v), as a huge dump then takes much longer
    assert [r.getMessage() for r in caplog.records] == [
        f"{path}: an integer past 64 bits after record 1: the dump is read again, from the "
        "start, by ijson's slower exact backend"
    ]


@pytest.mark.parametrize("module", [argsme, jsonl])
def test_deeply_nested_jsonl_line_is_rejected_not_a_recursion_error(
    tmp_path: Path, module: Any
) -> None:
    path = tmp_path / "deep.jsonl"
    lines = [
        json.dumps(GOOD),
        '{"id": "a2", "conclusion": "C", "premises": ' + _nested(100_000) + "}",
        json.dumps({**GOOD, "id": "a3"}),
    ]
    path.write_text("\n".join(lines) + "\n")
    records = list(module.read([path]))
    assert _aids(records) == [f"{module.FORMAT}:a1", f"{module.FORMAT}:a3"]
    [problem] = _rejected(records)
    assert problem.where.startswith(f"{tmp_path}/deep.jsonl:2")
    assert problem.field.startswith("premises.item")


def test_a_jsonl_line_over_the_size_limit_is_rejected_and_read_past(tmp_path: Path) -> None:
    from argkb.loaders.common import json_lines

    path = tmp_path / "big.jsonl"
    big = json.dumps({**GOOD, "id": "a2", "conclusion": "x" * 5000})
    path.write_text("\n".join([json.dumps(GOOD), big, json.dumps({**GOOD, "id": "a3"})]) + "\n")
    rows = list(json_lines(path, max_bytes=1000))
    assert [where for where, _ in rows] == [
        f"{tmp_path}/big.jsonl:1",
        f"{tmp_path}/big.jsonl:2",
        f"{tmp_path}/big.jsonl:3",
    ]
    assert isinstance(rows[1][1], Rejected) and "longer than 1,000 bytes" in rows[1][1].reason
    assert rows[2][1]["id"] == "a3"


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


@pytest.mark.parametrize(
    "value",
    [
        {"a": "[[[[\\", "b": [['\\"]]]]']]},
        {"t": 'quote " and [ { inside', "n": [[{"x": ["]"]}]]},
        [["\\\\", ["\\"]], {"k": '\\\\\\"'}],
        {"deep": json.loads(_nested(70))},
    ],
)
@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 1 << 24])
def test_max_json_depth_ignores_brackets_in_strings(value: Any, chunk: int) -> None:
    text = json.dumps(value).encode()
    assert max_json_depth(io.BytesIO(text), chunk=chunk) == _depth(value)


# -- skip mode never aborts: values Neo4j cannot store are rejected records --------------------

SURROGATE_LINE = (
    '{"id": "s1", "conclusion": "C \\ud800", "premises": [{"text": "P", "stance": "pro"}]}'
)
BAD_LINES = {
    "surrogate": SURROGATE_LINE,
    "surrogate id": '{"id": "s\\udfff", "conclusion": "C", "premises": [{"text": "P"}]}',
    "huge pagerank": json.dumps({**GOOD, "id": "b2", "source": {"id": "d", "pagerank": 2**80}}),
    "infinite pagerank": '{"id": "b3", "conclusion": "C", "premises": [{"text": "P"}], '
    '"source": {"id": "d2", "pagerank": Infinity}}',
    "object unit id": '{"id": "b4", "conclusion": {"text": "C", "id": {"a": 1}}, '
    '"premises": [{"text": "P"}]}',
    "object record id": '{"id": {"a": 1}, "conclusion": "C", "premises": [{"text": "P"}]}',
    "list source": '{"id": "b6", "conclusion": "C", "premises": [{"text": "P"}], "source": [1]}',
}


def _checked(records: list[Any], max_text: int | None = None) -> tuple[list[Any], list[Rejected]]:
    """The loader's records through the ingest's per-record check (what a skip-mode load does)."""
    from argkb.ingest import DEFAULT_MAX_TEXT, _checked_row

    rows: list[Any] = []
    rejected: list[Rejected] = []
    for record in records:
        if isinstance(record, LeftOut):
            continue
        checked = _checked_row(record, max_text or DEFAULT_MAX_TEXT)
        if isinstance(checked, Rejected):
            rejected.append(checked)
        else:
            rows.append(checked)
    return rows, rejected


def test_every_bad_jsonl_line_is_one_rejected_record_and_good_lines_load(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    lines = [json.dumps(GOOD), *BAD_LINES.values(), json.dumps({**GOOD, "id": "last"})]
    path.write_text("\n".join(lines) + "\n")
    rows, rejected = _checked(list(jsonl.read([path])))
    assert [row["aid"] for kind, row in rows if kind == "arguments"] == ["jsonl:a1", "jsonl:last"]
    assert sorted(r.where for r in rejected) == [f"{tmp_path}/bad.jsonl:{n}" for n in range(2, 9)]
    fields = {r.where: r.field for r in rejected}
    assert fields[f"{tmp_path}/bad.jsonl:4"] == "source.pagerank"
    assert fields[f"{tmp_path}/bad.jsonl:5"] == "source.pagerank"
    assert fields[f"{tmp_path}/bad.jsonl:6"] == "conclusion.id"
    for problem in rejected:
        str(problem).encode("utf-8")  # printable: no lone surrogate in any message
        assert "\n" not in str(problem)


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("C \ud800", "lone surrogate"),
        (2**80, "beyond 64 bits"),
        (float("inf"), "not finite"),
        (float("nan"), "not finite"),
        ({"a": 1}, "not a text or number"),
    ],
)
def test_validate_rejects_values_neo4j_cannot_store(value: Any, reason: str) -> None:
    from argkb.ingest import validate
    from argkb.loaders.records import SourceRecord

    problem = validate(SourceRecord("jsonl:d", (("pagerank", value),), "f.jsonl:3"), 1000)
    assert problem is not None and problem.field == "pagerank" and reason in problem.reason
    assert validate(SourceRecord("jsonl:d", (("pagerank", 2**62),), "f.jsonl:3"), 1000) is None


def test_a_record_that_breaks_the_checks_is_rejected_not_raised() -> None:
    from argkb.ingest import DEFAULT_MAX_TEXT, _checked_row
    from argkb.loaders.records import UnitRef

    broken = ArgumentRecord("x:1", UnitRef(None), (UnitRef("P"),), "pro", where="f:1")  # type: ignore[arg-type]
    problem = _checked_row(broken, DEFAULT_MAX_TEXT)
    assert isinstance(problem, Rejected) and problem.where == "f:1"


# -- lone surrogates in the args.me JSON dump (issue 26) ---------------------------------------

# escapes of lone UTF-16 surrogates (high ones alone, a low one alone), written as JSON text; the
# last record has a valid pair and a backslash followed by the text "ud800", neither lone
SURROGATE_RECORDS = [
    '{"id": "s1", "conclusion": "C \\ud800", "premises": [{"text": "P", "stance": "PRO"}]}',
    '{"id": "s2", "conclusion": "C", "premises": [{"text": "P \\udbff", "stance": "CON"}]}',
    '{"id": "s3", "conclusion": "C", "premises": [{"text": "P \\udc80", "stance": "PRO"}]}',
    '{"id": "s4", "conclusion": "C \\ud83d\\ude00 \\\\ud800", "premises": [{"text": "P"}]}',
]


def test_lone_surrogates_in_an_argsme_dump_are_rejected_as_in_jsonl(tmp_path: Path) -> None:
    """yajl read ``\ud800`` and ``\udbff`` as "?" and stopped the file at ``\udc80`` ("malformed
    JSON ... can't decode byte 0xed"): the dump now gives each record the JSONL reader's
    one-line error, naming file, record and field, and reads on."""
    records = [*SURROGATE_RECORDS[:3], SURROGATE_RECORDS[3].replace('"}]', '", "stance": "PRO"}]')]
    dump = tmp_path / "dump.json"
    dump.write_text('{"arguments": [' + ",\n".join(records) + "]}")
    lines = tmp_path / "dump.jsonl"
    lines.write_text("\n".join(records) + "\n")
    for path, first in ((dump, f"{tmp_path}/dump.json#0"), (lines, f"{tmp_path}/dump.jsonl:1")):
        rows, rejected = _checked(list(argsme.read([path])))
        assert [(r.field, r.reason) for r in rejected] == [
            ("conclusion", "not UTF-8 text (a lone surrogate)"),
            ("premises[0]", "not UTF-8 text (a lone surrogate)"),
            ("premises[0]", "not UTF-8 text (a lone surrogate)"),
        ], path.name
        assert rejected[0].where == f"{first} (id s1)"
        [row] = [row for kind, row in rows if kind == "arguments"]
        assert row["aid"] == "argsme:s4"
        assert row["conclusion"]["text"] == "C \U0001f600 \\ud800"
        for problem in rejected:
            str(problem).encode("utf-8")
            assert "\n" not in str(problem)


def test_bytes_that_are_no_utf8_in_an_argsme_dump_are_called_so(tmp_path: Path) -> None:
    """Not "malformed JSON after record 0: IncompleteJSONError" (yajl's message is bytes)."""
    path = tmp_path / "latin.json"
    second = json.dumps({**GOOD, "id": "a2", "conclusion": "C \u00e9t\u00e9"}, ensure_ascii=False)
    text = '{"arguments": [' + json.dumps(GOOD) + ", " + second + "]}"
    path.write_bytes(text.encode("latin-1"))
    records = list(argsme.read([path]))
    assert _aids(records) == ["argsme:a1"]
    assert _rejected(records) == [
        Rejected(
            str(path),
            "<encoding>",
            "not UTF-8 after record 0; the rest of the file cannot be read",
        )
    ]


@pytest.mark.parametrize("chunk", [1, 2, 5, 7, 11, 1 << 24])
@pytest.mark.parametrize(
    ("text", "lone"),
    [
        ('"\\ud800"', True),
        ('"\\uDBFF x"', True),
        ('"\\udc80"', True),
        ('"x \\ud83d\\u0041"', True),  # a high surrogate, then no low one
        ('"\\\\\\udc80"', True),  # an escaped backslash, then a lone low surrogate
        ('"\\\\ud800\\udc80"', True),  # the text "ud800" does not pair the low surrogate
        ('"\\ud83d\\ude00 \\uD83D\\uDE00"', False),
        ('"\\\\ud800 \\\\udc80"', False),  # a backslash and plain text
        ('"\\\\\\\\ud800"', False),
        ('"\\u0041 \\n \\" ud800"', False),
    ],
)
def test_scan_json_finds_lone_surrogate_escapes(text: str, lone: bool, chunk: int) -> None:
    from argkb.loaders.common import scan_json

    document = ('{"a": [' + text + ', "' + "x" * 20 + '"]}').encode()
    assert json.loads(document)  # valid JSON either way
    assert scan_json(io.BytesIO(document), chunk=chunk) == (2, lone)


# -- silently lost data: two texts under one unit id, an empty file ----------------------------


def _unit_line(aid: str, conclusion: str, premise: str, premise_id: str) -> str:
    return json.dumps(
        {"id": aid, "conclusion": conclusion, "premises": [{"text": premise, "id": premise_id}]}
    )


def test_a_second_text_under_one_unit_id_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "ids.jsonl"
    lines = [
        _unit_line("a1", "C one", "Premise text", "p7"),
        _unit_line("a2", "C two", "premise text.", "p7"),  # the same unit, spelled otherwise
        _unit_line("a3", "C three", "A different text", "p7"),
    ]
    path.write_text("\n".join(lines) + "\n")
    records = list(jsonl.read([path]))
    assert _aids(records) == ["jsonl:a1", "jsonl:a2"]
    assert _rejected(records) == [
        Rejected(
            f"{tmp_path}/ids.jsonl:3",
            "premises[0].id",
            f"unit id 'p7' already names another text (at {path}:1)",
        )
    ]


@pytest.mark.parametrize("module", [argsme, jsonl])
def test_an_empty_jsonl_file_is_a_rejection_not_an_empty_corpus(
    tmp_path: Path, module: Any
) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n  \n")
    assert list(module.read([path])) == [
        Rejected(str(path), "<file>", "no records: the file is empty")
    ]


def test_a_self_loop_names_the_index_of_the_premise_that_is_the_conclusion() -> None:
    """The field said ``premises``, where every other premise error names ``premises[N]``."""
    from argkb.ingest import validate
    from argkb.loaders.records import UnitRef

    premises = (UnitRef("Another premise"), UnitRef("We should act."), UnitRef("A third"))
    record = ArgumentRecord("x:1", UnitRef("we should ACT"), premises, "pro", where="f.jsonl:4")
    assert validate(record, 1000) == Rejected(
        "f.jsonl:4", "premises[1]", "a premise equals the conclusion (self-loop)"
    )


@pytest.mark.parametrize("module", [argsme, jsonl])
def test_premise_errors_of_a_line_split_by_stance_name_the_lines_index(
    tmp_path: Path, module: Any
) -> None:
    """A line's pro and con premises become two arguments; an error in the con argument named
    its index there (``premises[0]``), not the line's (``premises[2]``)."""
    premises = [
        {"text": "Pro one", "stance": "pro"},
        {"text": "Con one", "stance": "con"},
        {"text": "Pro two", "stance": "pro"},
        {"text": "x" * 200, "stance": "con"},
    ]
    loop = [*premises[:3], {"text": "the CONCLUSION", "stance": "con"}]
    path = tmp_path / "split.jsonl"
    lines = [{"id": "a1", "conclusion": "The conclusion.", "premises": p} for p in (premises, loop)]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    _, rejected = _checked(list(module.read([path])), max_text=100)
    assert [(r.field, r.reason) for r in rejected] == [
        ("premises[3]", "text of 200 characters (limit 100)"),
        ("premises[3]", "a premise equals the conclusion (self-loop)"),
    ]


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _fixture_copy(tmp_path: Path, name: str, file: str, old: bytes, new: bytes) -> Path:
    """A copy of fixture folder ``name`` with ``old`` replaced by ``new`` once in ``file``."""
    folder = tmp_path / name
    shutil.copytree(FIXTURES / name, folder)
    data = (folder / file).read_bytes()
    assert old in data
    (folder / file).write_bytes(data.replace(old, new, 1))
    return folder


@pytest.mark.parametrize(
    ("name", "file", "old", "new", "where", "field", "control"),
    [
        ("argkp", "arguments_train.csv", b"People should", b"Peo\0ple should",
         "arguments_train.csv:line 2", "argument", "U+0000 at character 4"),
        ("argkp", "key_points_train.csv", b"Assisted suicide", b"\x1b[31mAssisted suicide",
         "key_points_train.csv:line 2", "key_point", "U+001B at character 1"),
        ("argquality", "webis-argquality20-arguments.csv", b"The death", b"The\x1b[2J death",
         "webis-argquality20-arguments.csv:line 2", "Premise", "U+001B at character 4"),
        ("sigir19", "arguments.csv", b"Homework should", b"Homework\x07 should",
         "arguments.csv:line 2", "Conclusion", "U+0007 at character 9"),
        ("argsme", "small.json", b'"conclusion": "', b'"conclusion": "\\u0000',
         "small.json#0", "conclusion", "U+0000 at character 1"),
        ("aif", "aifdb/nodeset101.json", b"We should phase", b"We\\u007f should phase",
         "nodeset101.json#node", "I-node 1 text", "U+007F at character 3"),
        ("argrank", "ground-truth-list.csv", b',2,"One cup', b',2,"One\x00cup',
         "ground-truth-list.csv:line 2", "unit 2 text", "U+0000 at character 4"),
    ],
)  # fmt: skip
def test_a_control_character_in_a_text_is_rejected_in_every_format(
    tmp_path: Path, name: str, file: str, old: bytes, new: bytes, where: str, field: str,
    control: str,
) -> None:  # fmt: skip
    """Only the JSONL loader refused a NUL or an escape sequence in a text: a CSV, an args.me
    dump or an AIF map loaded it as given (and ESC reached a terminal through argkb query).
    The field is the input's (a CSV column, an I-node), not the record's ``premises[0]``."""
    from argkb.loaders import aif, argkp, argquality, argrank, sigir19

    folder = _fixture_copy(tmp_path, name, file, old, new)
    module = {"argkp": argkp, "argquality": argquality, "sigir19": sigir19, "aif": aif,
              "argrank": argrank}  # fmt: skip
    reader = module.get(name, argsme)
    paths = [folder / file] if name == "argsme" else [folder]
    _, rejected = _checked(list(reader.read(paths)))
    assert rejected, "the control character was loaded"
    first = rejected[0]
    assert where in first.where and first.field == field, first
    assert f"control character {control} of the text" in first.reason


def test_the_ingests_errors_in_a_csv_row_name_its_column(tmp_path: Path) -> None:
    """A text over --max-text or a self-loop in an ArgKP, ArgQuality or SIGIR-19 row was said to
    be in field 'premises[0]' or 'conclusion', which no CSV has: the column is named now."""
    from argkb.loaders import argkp, argquality, sigir19

    long = b"y" * 300
    cases = [
        (argkp, "argkp", "arguments_train.csv", b"People should", long, "argument"),
        (argquality, "argquality", "webis-argquality20-topics.csv", b"Should the Death", long,
         "Long Query (of topic 14)"),
        (sigir19, "sigir19", "arguments.csv", b"Pupils who", long, "Premise"),
    ]  # fmt: skip
    for module, name, file, old, new, field in cases:
        folder = _fixture_copy(tmp_path / name, name, file, old, new)
        _, rejected = _checked(list(module.read([folder])), max_text=200)
        assert rejected and rejected[0].field == field, (name, rejected)
        assert rejected[0].reason.endswith("characters (limit 200)"), rejected[0]
    # a topic that is also its own argument's text: a self-loop, named as the CSV has it
    topic = b"Assisted suicide should be a criminal offence"
    text = b'"People should be able to end their suffering, with dignity."'
    folder = _fixture_copy(tmp_path / "loop", "argkp", "arguments_train.csv", text, topic)
    _, rejected = _checked(list(argkp.read([folder])))
    assert [(r.field, r.reason) for r in rejected][:1] == [
        ("argument", "a premise equals the conclusion (self-loop)")
    ]


@pytest.mark.parametrize(
    ("codec", "name"),
    [("utf-16-le", "UTF-16-LE"), ("utf-16-be", "UTF-16-BE"), ("utf-32-le", "UTF-32-LE"),
     ("utf-32-be", "UTF-32-BE")],
)  # fmt: skip
@pytest.mark.parametrize("kind", ["jsonl", "argsme", "argkp", "aif"])
def test_utf16_and_32_without_a_byte_order_mark_are_named(
    tmp_path: Path, kind: str, codec: str, name: str
) -> None:
    """With a BOM such a file was refused by name; without one it was "malformed JSON:
    Expecting property name" or an ArgKP header of NUL-spaced names ("missing column")."""
    from argkb.errors import LoadError
    from argkb.loaders import aif, argkp

    module: Any
    if kind == "argkp":
        folder = tmp_path / "argkp"
        shutil.copytree(FIXTURES / "argkp", folder)
        path = folder / "arguments_dev.csv"
        path.write_bytes(path.read_text(encoding="utf-8").encode(codec))
        paths, module = [folder], argkp
    elif kind == "aif":
        path = tmp_path / "map.json"
        data = (FIXTURES / "aif" / "aifdb" / "nodeset101.json").read_text(encoding="utf-8")
        path.write_bytes(data.encode(codec))
        paths, module = [path], aif
    else:
        path = tmp_path / "args.jsonl"
        path.write_bytes((json.dumps(GOOD) + "\n").encode(codec))
        paths, module = [path], {"jsonl": jsonl, "argsme": argsme}[kind]
    try:
        problems = _rejected(list(module.read(paths)))
    except LoadError as err:
        problems = [Rejected(err.where, err.field, err.reason)]
    assert problems[:1] == [
        Rejected(str(path), "<encoding>", f"file is {name} (without a byte order mark); "
                 "convert it to UTF-8")
    ]  # fmt: skip


def test_a_utf8_text_is_not_taken_for_utf16() -> None:
    from argkb.loaders.common import bom_encoding

    for head in (b'{"id', b"arg_", b"\xef\xbb\xbf{", b"a\0", b"", b"\0\0\0\0", b"a\0b"):
        assert bom_encoding(head) is None, head


def _unreadable(monkeypatch: pytest.MonkeyPatch, unreadable: Path) -> None:
    """``unreadable`` raises PermissionError when opened (as for a file of mode 000; the tests
    may run as root, who reads any file)."""
    real_open = Path.open

    def guarded(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self == unreadable:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", guarded)


@pytest.mark.parametrize("kind", ["hash", "jsonl", "argsme", "argkp"])
def test_an_unreadable_file_is_one_line_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """A file argkb may not read was a PermissionError traceback (the content hash opened it
    first, then the loaders)."""
    from argkb.errors import LoadError
    from argkb.ingest import content_hash
    from argkb.loaders import argkp

    read: Callable[[], object]
    if kind == "argkp":
        folder = tmp_path / "argkp"
        shutil.copytree(FIXTURES / "argkp", folder)
        path, read = folder / "arguments_dev.csv", lambda: list(argkp.read([folder]))
    else:
        path = tmp_path / "args.jsonl"
        path.write_text(json.dumps(GOOD) + "\n")
        module = {"jsonl": jsonl, "argsme": argsme}.get(kind)
        read = (lambda: content_hash([tmp_path])) if module is None else (
            lambda: list(module.read([path])))  # fmt: skip
    _unreadable(monkeypatch, path)
    with pytest.raises(LoadError) as err:
        read()
    assert str(err.value) == f"{path}: cannot read: Permission denied"


@pytest.mark.parametrize("content", [b"", b" \r\n\t", b"\xef\xbb\xbf\n"])
def test_an_empty_argsme_dump_or_aif_map_says_so(tmp_path: Path, content: bytes) -> None:
    """They said "not args.me JSON (...): parse error: premature EOF" and "malformed JSON:
    Expecting value: line 1 column 1 (char 0)"."""
    from argkb.loaders import aif

    dump, folder = tmp_path / "dump.json", tmp_path / "maps"
    dump.write_bytes(content)
    folder.mkdir()
    (folder / "a.json").write_bytes(content)
    shutil.copy(FIXTURES / "aif" / "aifdb" / "nodeset101.json", folder / "b.json")
    assert list(argsme.read([dump])) == [
        Rejected(str(dump), "<file>", "no records: the file is empty")
    ]
    records = list(aif.read([folder]))
    assert _rejected(records) == [
        Rejected(str(folder / "a.json"), "<file>", "no map: the file is empty")
    ]
    assert _aids(records)  # the other map loads


def test_a_jsonl_source_id_0_is_its_id_not_its_title(tmp_path: Path) -> None:
    """``{"id": 0, "title": "Energy"}`` was the source ``jsonl:Energy`` (``or`` skipped the id
    0), one node with another line's source ``"Energy"``."""
    from argkb.loaders.records import SourceRecord

    path = tmp_path / "src.jsonl"
    lines = [
        {**GOOD, "source": {"id": 0, "title": "Energy"}},
        {**GOOD, "id": "a2", "source": "Energy"},
        {**GOOD, "id": "a3", "source": {"id": "", "url": "u"}},
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    records = list(jsonl.read([path]))
    assert [r.sid for r in records if isinstance(r, SourceRecord)] == [
        "jsonl:0", "jsonl:Energy", "jsonl:u"
    ]  # fmt: skip
    assert [r.source for r in records if isinstance(r, ArgumentRecord)] == [
        "jsonl:0", "jsonl:Energy", "jsonl:u"
    ]  # fmt: skip


@pytest.mark.parametrize("kind", ["fifo", "symlink", "directory"])
@pytest.mark.parametrize(
    ("name", "file"),
    [("argkp", "arguments_train.csv"), ("argquality", "webis-argquality20-topics.csv"),
     ("argrank", "groundtruth.json")],
)  # fmt: skip
def test_a_dataset_file_that_is_no_file_says_what_it_is(
    tmp_path: Path, name: str, file: str, kind: str
) -> None:
    """A pipe, a broken symbolic link or a folder in a dataset folder was "no such file"."""
    import os

    from argkb.errors import LoadError
    from argkb.loaders import argkp, argquality, argrank

    folder = tmp_path / name
    shutil.copytree(FIXTURES / name, folder)
    path = folder / file
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
        reason = "not a regular file (a pipe or a device?)"
    elif kind == "symlink":
        path.symlink_to(tmp_path / "gone.csv")
        reason = f"a broken symbolic link (to {tmp_path / 'gone.csv'})"
    else:
        path.mkdir()
        reason = "a directory, not a file"
    module: Any = {"argkp": argkp, "argquality": argquality, "argrank": argrank}[name]
    with pytest.raises(LoadError) as err:
        list(module.read([folder]))
    assert str(err.value) == f"{path}: {reason}"


@pytest.mark.parametrize(
    ("name", "file", "old", "new", "column"),
    [("argquality", "webis-argquality20-arguments.csv", b",10,True,", b"," + b"9" * 30 + b",True,",
      "Text Length"),
     ("sigir19", "arguments.csv", b"0002,00000101,", b"0002," + b"7" * 25 + b",",
      "Discussion ID")],
)  # fmt: skip
def test_a_csv_integer_past_64_bits_names_its_column(
    tmp_path: Path, name: str, file: str, old: bytes, new: bytes, column: str
) -> None:
    """It reached the ingest, which named the property (``text_length``), not the column."""
    from argkb.loaders import argquality, sigir19

    folder = _fixture_copy(tmp_path, name, file, old, new)
    module: Any = {"argquality": argquality, "sigir19": sigir19}[name]
    _, rejected = _checked(list(module.read([folder])))
    assert (rejected[0].where, rejected[0].field) == (f"{folder / file}:line 2", column)
    assert rejected[0].reason.endswith("bits, beyond 64 bits")


def test_bytes_that_are_no_utf8_in_argrank_name_the_column(tmp_path: Path) -> None:
    """The other CSV loaders named the column; ArgRank's reached the ingest as "field 'unit 1
    text': not UTF-8 text (a lone surrogate)"."""
    from argkb.loaders import argrank

    old = b"Strawberries are the best choice for Your"
    new = b"Strawberri\xe9s are the best choice for Your"  # Latin-1
    folder = _fixture_copy(tmp_path, "argrank", "ground-truth-list.csv", old, new)
    _, rejected = _checked(list(argrank.read([folder])))
    assert rejected[0] == Rejected(
        f"{folder}/ground-truth-list.csv:line 2",
        "Conclusion text",
        "not UTF-8 (bytes that are no UTF-8 text)",
    )


UTF8_BOM = b"\xef\xbb\xbf"
ARGSME_LINE = {"id": "m1", "conclusion": "C one", "premises": [{"text": "P one", "stance": "PRO"}]}


@pytest.mark.parametrize(("reader", "line"), [(jsonl.read, GOOD), (argsme.read, ARGSME_LINE)])
def test_files_saved_with_a_bom_and_joined_with_cat_load_as_they_do_apart(
    tmp_path: Path, reader: Callable[[list[Path]], Any], line: dict[str, Any]
) -> None:
    """``cat a.jsonl b.jsonl`` of two files saved with a UTF-8 BOM (Notepad, Excel) put the
    second BOM at the start of a line, which was "malformed JSON: Unexpected UTF-8 BOM (decode
    using utf-8-sig)". A line is a JSON text of its own and may start with a BOM, as the file
    may (RFC 8259 8.1): the joined file now loads what the two files load apart."""
    second = {**line, "id": "m2", "conclusion": "C two"}
    parts = [tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "blank.jsonl"]
    parts[0].write_bytes(UTF8_BOM + json.dumps(line).encode() + b"\n")
    parts[1].write_bytes(UTF8_BOM + json.dumps(second).encode() + b"\n")
    parts[2].write_bytes(UTF8_BOM + b"\n")  # a BOM on a line of its own is a blank line
    joined = tmp_path / "joined.jsonl"
    joined.write_bytes(b"".join(part.read_bytes() for part in parts))
    together = list(reader([joined]))
    assert not _rejected(together), together

    def arguments(records: Iterable[Any]) -> list[ArgumentRecord]:  # wherever each was read
        return [replace(r, where="") for r in records if isinstance(r, ArgumentRecord)]

    apart = arguments(reader(parts[:2]))
    assert len(apart) == 2 and arguments(together) == apart


def test_a_bom_inside_a_line_is_named_with_file_and_line(tmp_path: Path) -> None:
    """A BOM elsewhere in a line (two files joined without a line break between them) was
    "Extra data" or "Expecting value" at a character; the reason now names the byte order mark,
    with the file and line, and the next line still loads."""
    path = tmp_path / "joined.jsonl"
    one, two = json.dumps(GOOD).encode(), json.dumps({**GOOD, "id": "a2"}).encode()
    path.write_bytes(one + UTF8_BOM + two + b"\n" + b'{"id": ' + UTF8_BOM + b'"a3"}\n' + two)
    records = list(jsonl.read([path]))
    assert _aids(records) == ["jsonl:a2"]
    assert [(r.where, r.field, r.reason) for r in _rejected(records)] == [
        (f"{path}:1", "<json>", f"a byte order mark (U+FEFF) inside the file, at character "
         f"{len(one) + 1} of the line, after a whole JSON value: two files joined without a line "
         "break? put each record on a line of its own"),
        (f"{path}:2", "<json>", "a byte order mark (U+FEFF) inside the file, at character 8 of "
         "the line, where JSON allows none"),
    ]  # fmt: skip
