"""Crashes the fuzz tier (tests/fuzz) found in the readers, one regression test each: every one
was a traceback out of ``read`` (issue 13), and is now a :class:`Rejected` for the bad record or
member, or a one-line :class:`LoadError`, with the good records around it still read."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from argkb.errors import LoadError
from argkb.ingest import validate
from argkb.loaders import aif, argquality, argrank, argsme, jsonl
from argkb.loaders.common import TOO_LONG_NUMBER
from argkb.loaders.records import ArgumentRecord, Rejected

HUGE = "1" * 5000  # more digits than Python turns into an int (sys.get_int_max_str_digits)
GOOD = '{"id": "a1", "conclusion": "C", "premises": [{"text": "P", "stance": "pro"}]}'
MAP = b'{"nodes": [{"nodeID": "1", "type": "I", "text": "A unit"}], "edges": []}'


@pytest.mark.parametrize("module", [argsme, jsonl], ids=["argsme", "jsonl"])
def test_a_jsonl_number_of_5000_digits_rejects_its_line(module, tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    path.write_text('{"id": ' + HUGE + ', "conclusion": "C"}\n' + GOOD + "\n")
    records = list(module.read([path]))
    assert records[0] == Rejected(f"{tmp_path}/big.jsonl:1", "<json>", TOO_LONG_NUMBER)
    assert [r.aid for r in records if isinstance(r, ArgumentRecord)] == [f"{module.FORMAT}:a1"]


def test_a_jsonl_unit_id_with_a_lone_surrogate_is_rejected_by_the_ingest(tmp_path: Path) -> None:
    # no argument id: the reader hashes the unit ids, which used to fail on the surrogate
    path = tmp_path / "ids.jsonl"
    path.write_text('{"conclusion": {"text": "C", "id": "\\ud800"}, "premises": [{"text": "P"}]}\n')
    [record] = list(jsonl.read([path]))
    assert isinstance(record, ArgumentRecord)
    problem = validate(record, max_text=1000)
    assert problem is not None and problem.field == "conclusion id"


@pytest.mark.parametrize(
    ("graph", "reason"),
    [("[" * 100_000 + "]" * 100_000, "nested too deeply"), ('{"nodes": [' + HUGE + "]}", "digits")],
)
def test_an_argrank_graph_too_deep_or_with_a_huge_number_is_one_load_error(
    tmp_path: Path, graph: str, reason: str
) -> None:
    path = tmp_path / argrank.GRAPH_FILE
    path.write_text(graph)
    with pytest.raises(LoadError, match=reason) as err:
        list(argrank.read([path]))
    assert "\n" not in str(err.value)


def test_an_argrank_unit_id_of_5000_digits_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / argrank.GRAPH_FILE
    path.write_text('{"nodes": ["' + HUGE + '", 7], "edges": []}')
    records = list(argrank.read([path]))
    assert isinstance(records[0], Rejected) and records[0].field == "nodes"
    assert len(records) == 2  # unit 7


def test_an_argquality_id_of_5000_digits_is_rejected(tmp_path: Path) -> None:
    (tmp_path / "webis-argquality20-topics.csv").write_text(
        "Topic ID,Category,Long Query,Short Query\n" + HUGE + ",E,Should we?,We\n1,E,Q,q\n"
    )
    (tmp_path / "webis-argquality20-arguments.csv").write_text(
        ",".join(argquality.ARGUMENT_COLUMNS) + "\n"
    )
    [problem] = [r for r in argquality.read([tmp_path]) if isinstance(r, Rejected)]
    assert problem.field == "Topic ID" and len(problem.reason) < 100


def _zip(members: list[tuple[str | zipfile.ZipInfo, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_zip_member_with_bad_deflate_data_is_rejected_and_the_rest_read(tmp_path: Path) -> None:
    data = bytearray(_zip([("a.json", MAP), ("b.json", MAP)]))
    start = 30 + len("a.json")  # the first member's compressed data, after its local header
    data[start : start + 3] = b"\xff\xff\xff"  # not deflate: zlib.error
    path = tmp_path / "maps.zip"
    path.write_bytes(bytes(data))
    records = list(aif.read([path]))
    assert isinstance(records[0], Rejected) and records[0].where == f"{path}:a.json"
    assert records[0].field == "<file>"
    assert {r.where for r in records[1:]} == {f"{path}:b.json", f"{path}:b.json#node 1"}


def test_a_zip_needing_an_unknown_zip_version_is_one_load_error(tmp_path: Path) -> None:
    data = bytearray(_zip([("a.json", MAP)]))
    directory = data.index(b"PK\x01\x02")
    data[directory + 6] = 0xFF  # "version needed to extract": 25.5
    path = tmp_path / "maps.zip"
    path.write_bytes(bytes(data))
    with pytest.raises(LoadError, match="not a readable zip archive"):
        aif.read([path])


def test_a_zip_member_with_an_empty_name_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "maps.zip"
    path.write_bytes(_zip([(zipfile.ZipInfo(""), b"{}"), ("a.json", MAP)]))
    assert [r.where for r in aif.read([path])] == [f"{path}:a.json", f"{path}:a.json#node 1"]


@pytest.mark.parametrize("exponent", [80, 400, 5000])
def test_a_jsonl_source_pagerank_of_any_size_is_rejected_not_a_crash(
    tmp_path: Path, exponent: int
) -> None:
    # json.loads reads 10**400 as an int; naming it used to format it as a float (OverflowError)
    path = tmp_path / "pr.jsonl"
    pagerank = "1" + "0" * min(exponent, 4000)
    path.write_text(GOOD[:-1] + ', "source": {"id": "d", "pagerank": ' + pagerank + "}}\n")
    [problem] = list(jsonl.read([path]))
    assert isinstance(problem, Rejected) and problem.field == "source.pagerank"
    assert "beyond 64 bits" in problem.reason
