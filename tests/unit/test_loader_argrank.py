"""Unit tests for the Webis-ArgRank-17 loader, on tests/fixtures/argrank.

The fixture: conclusion 1 has benchmark arguments 501 (premise 2) and 502 (premises 3, 4);
conclusion 5 has 503 (premise 6) and 504 (premise 7), whose row carries stray text fields in the
premise-id columns as in line 98 of the real file. The graph adds edges [2, 8] (unit 2 is reused
as a conclusion) and [100, 5] (unit 100 is in no AIFdb map); unit 9 is only in the source list.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from argkb.errors import LoadError
from argkb.loaders import argrank
from argkb.loaders.records import (
    ArgumentRecord,
    Rejected,
    SourceRecord,
    UnitRecord,
    UnitRef,
)

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "argrank"
BENCHMARK = "ground-truth-list.csv"
STRAWBERRIES = "Strawberries are the best choice for Your breakfast"
VITAMIN = "One cup of strawberries contains your daily vitamin C, and fibre"
TECHNOLOGY = "Technology has enhanced the daily life of humans.\N{REPLACEMENT CHARACTER}"


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "argrank"
    shutil.copytree(FIXTURE, root)
    return root


def _benchmark_line(line: int) -> str:
    return (FIXTURE / BENCHMARK).read_text(encoding="utf-8").splitlines()[line - 1]


def _with_benchmark_rows(tmp_path: Path, *rows: str) -> Path:
    root = _copy(tmp_path)
    (root / BENCHMARK).write_text("\n".join([_benchmark_line(1), *rows]) + "\n", encoding="utf-8")
    return root


def test_benchmark_arguments_come_first_with_their_texts_and_maps() -> None:
    records = list(argrank.read([FIXTURE]))
    assert records[:3] == [
        SourceRecord(
            "argrank:map:10", (("map_id", 10), ("corpus", "looc1")), f"{FIXTURE}/{BENCHMARK}:line 2"
        ),
        ArgumentRecord(
            aid="argrank:501",
            conclusion=UnitRef(STRAWBERRIES, key="argrank:1"),
            premises=(UnitRef(VITAMIN, key="argrank:2"),),
            stance="pro",
            source="argrank:map:10",
            properties=(
                ("construction", "benchmark"),
                ("argument_id", 501),
                ("stance_known", False),
                ("aggregate_rank", 1),
                ("mean_rank", 1.285714286),
                ("corrected_premises", VITAMIN + "."),
                ("aifdb_map_ids", "10 11"),
            ),
            where=f"{FIXTURE}/{BENCHMARK}:line 2",
        ),
        ArgumentRecord(
            aid="argrank:502",
            conclusion=UnitRef(STRAWBERRIES, key="argrank:1"),
            premises=(
                UnitRef('"Berries are superfoods," says a nutritionist', key="argrank:3"),
                UnitRef("She works in New York City.", key="argrank:4"),
            ),
            stance="pro",
            source="argrank:map:10",
            properties=(
                ("construction", "benchmark"),
                ("argument_id", 502),
                ("stance_known", False),
                ("aggregate_rank", 2),
                ("mean_rank", 1.714285714),
                (
                    "corrected_premises",
                    '"Berries are superfoods," says a nutritionist. She works in New York City.',
                ),
                ("aifdb_map_ids", "10"),
            ),
            where=f"{FIXTURE}/{BENCHMARK}:line 3",
        ),
    ]


def test_edges_become_one_argument_each_unless_a_benchmark_argument_covers_them() -> None:
    records = list(argrank.read([FIXTURE]))
    arguments = [r for r in records if isinstance(r, ArgumentRecord)]
    assert [(a.aid, [p.key for p in a.premises]) for a in arguments] == [
        ("argrank:501", ["argrank:2"]),
        ("argrank:502", ["argrank:3", "argrank:4"]),
        ("argrank:503", ["argrank:6"]),
        ("argrank:504", ["argrank:7"]),
        ("argrank:edge:2-8", ["argrank:8"]),
        ("argrank:edge:100-5", ["argrank:5"]),
    ]
    reused, orphan = arguments[4], arguments[5]
    # a unit with a known text carries it in every record, also where it is not benchmark
    assert reused.conclusion == UnitRef(VITAMIN, key="argrank:2")
    assert reused.premises == (UnitRef("", key="argrank:8"),)
    assert reused.source == "argrank:map:30"
    assert dict(reused.properties) == {
        "construction": "edge",
        "stance_known": False,
        "aifdb_map_ids": "30",
    }
    assert orphan.conclusion == UnitRef("", key="argrank:100")
    assert orphan.premises == (UnitRef(TECHNOLOGY, key="argrank:5"),)
    assert orphan.source is None
    sources = [r for r in records if isinstance(r, SourceRecord)]
    assert [(s.sid, dict(s.properties)["corpus"]) for s in sources] == [
        ("argrank:map:10", "looc1"),
        ("argrank:map:20", "IAC"),
        ("argrank:map:30", "looc1"),
    ]


def test_every_unit_gets_a_unit_record_with_its_provenance() -> None:
    units = [r for r in argrank.read([FIXTURE]) if isinstance(r, UnitRecord)]
    assert [u.unit.key for u in units] == [f"argrank:{i}" for i in (1, 2, 3, 4, 5, 6, 7, 8, 9, 100)]
    assert units[0] == UnitRecord(
        unit=UnitRef(STRAWBERRIES, key="argrank:1"),
        properties=(
            ("argrank_id", 1),
            ("corpora", "looc1"),
            ("aifdb_unit_ids", "51799"),
            ("aifdb_map_ids", "10 11"),
            ("isolated", False),
            ("corrected_text", "Strawberries are the best choice for your breakfast."),
        ),
        where=f"{FIXTURE}/ground-truth-list.csv:line 2 (unit 1)",
    )
    assert units[8] == UnitRecord(
        unit=UnitRef("", key="argrank:9"),
        properties=(
            ("argrank_id", 9),
            ("corpora", "Araucaria"),
            ("aifdb_unit_ids", "901"),
            ("aifdb_map_ids", "40"),
            ("isolated", True),
        ),
        where=f"{FIXTURE}/unit-source-list.csv:line 13 (unit 9)",
    )
    assert units[9].properties == (("argrank_id", 100), ("isolated", False))
    # every unit names the file that first names it (a graph node, an edge, a benchmark row)
    assert units[7].where == f"{FIXTURE}/groundtruth.json:edges[5] (unit 8)"
    without = [
        r for r in argrank.read([FIXTURE], include_isolated=False) if isinstance(r, UnitRecord)
    ]
    assert "argrank:9" not in [u.unit.key for u in without]
    assert len(without) == 9


def test_load_benchmark_parses_ranks_and_texts() -> None:
    benchmark = argrank.load_benchmark(FIXTURE)
    assert [b.argument_id for b in benchmark] == [501, 502, 503, 504]
    first = benchmark[0]
    assert first == argrank.BenchmarkArgument(
        argument_id=501,
        conclusion_id=1,
        premise_ids=(2,),
        conclusion_text=STRAWBERRIES,
        premise_texts=(VITAMIN,),
        corrected_conclusion="Strawberries are the best choice for your breakfast.",
        corrected_premises=VITAMIN + ".",
        aggregate_rank=1,
        mean_rank=1.285714286,
        annotator_ranks=(1, 1, 2, 1, 1, 1, 2),
        repaired=False,
        where=f"{FIXTURE}/{BENCHMARK}:line 2",
    )
    assert first.aid == "argrank:501"
    assert sum(first.annotator_ranks) / 7 == pytest.approx(first.mean_rank)
    assert benchmark[1].premise_ids == (3, 4)
    assert argrank.load_benchmark(FIXTURE / BENCHMARK) == benchmark


def test_stray_text_fields_in_premise_id_columns_are_realigned() -> None:
    stray = argrank.load_benchmark(FIXTURE)[3]
    assert stray.argument_id == 504
    assert stray.premise_ids == (7,)
    assert stray.premise_texts == ("Also, the web can encourage a sedentary life",)
    assert stray.corrected_premises == (
        "It is often believed that this easy, immediate access leads people to just "
        '"google" their questions.'
    )
    assert stray.repaired is True
    assert stray.aggregate_rank == 2
    assert stray.annotator_ranks == (2, 2, 1, 2, 2, 2, 2)


def test_repeated_premise_id_in_the_wrong_columns_is_read_once(tmp_path: Path) -> None:
    # line 17 of the real file: premise 2's id sits in a text column and again further right
    row = (
        "601,1,1.0,1,1,1,1,1,1,1,1,Claim,2,Claim.,Merged text.,3,First premise,,4,,"
        '"Second premise""",4,Second premise, ,, '
    )
    root = _with_benchmark_rows(tmp_path, row)
    (argument,) = argrank.load_benchmark(root)
    assert argument.premise_ids == (3, 4)
    assert argument.premise_texts == ("First premise", "Second premise")
    assert argument.repaired is True


def test_bad_benchmark_rows_are_rejected(tmp_path: Path) -> None:
    ranks = "1,1.0,1,1,1,1,1,1,1"
    root = _with_benchmark_rows(
        tmp_path,
        f"x1,{ranks},1,Claim,1,Claim.,Text.,2,Premise, ,, ,, ,,,,",
        f"602,{ranks},1,Claim,2,Claim.,Text.,2,Premise, ,, ,, ,,,,",
        f"603,{ranks},1,Claim,1,Claim.,Text.,stray words,Premise, ,, ,, ,,,,",
        "604,1,one,1,1,1,1,1,1,1,1,Claim,1,Claim.,Text.,2,Premise, ,, ,, ,,,,",
        f"605,{ranks},,Claim,1,Claim.,Text.,2,Premise, ,, ,, ,,,,",
        f"606,{ranks},1,Claim,1,Claim.,Text.,2,Premise, ,, ,, ,,,,",
        f"606,{ranks},1,Claim,1,Claim.,Text.,3,Premise, ,, ,, ,,,,",
    )
    rejected = [r for r in argrank.read([root]) if isinstance(r, Rejected)]
    assert [(r.where, r.field) for r in rejected] == [
        (f"{root}/{BENCHMARK}:line 2", "Argument ID"),
        (f"{root}/{BENCHMARK}:line 3", "Number of premises"),
        (f"{root}/{BENCHMARK}:line 4", "Premise 1 argument unit ID"),
        (f"{root}/{BENCHMARK}:line 5", "Mean rank"),
        (f"{root}/{BENCHMARK}:line 6", "Conclusion argument unit ID"),
        (f"{root}/{BENCHMARK}:line 8", "Argument ID"),
    ]
    assert rejected[0].reason == "not a non-negative integer: 'x1'"
    assert rejected[1].reason == "says 2, but the row has 1 numeric premise ids"
    assert rejected[4].reason == "missing or empty"
    with pytest.raises(LoadError) as err:
        argrank.load_benchmark(root)
    assert err.value.where == f"{root}/{BENCHMARK}:line 2"


def test_bad_graph_entries_and_source_rows_are_rejected(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    graph = {
        "nodes": [1, 2, "three", 2, 9],
        "edges": [[1, 2], [1, 1], [1, "x"], [1, 2, 3], [1, 2], [2, 8], [2, 9]],
    }
    (root / "groundtruth.json").write_text(json.dumps(graph), encoding="utf-8")
    with (root / "unit-source-list.csv").open("a", encoding="utf-8") as handle:
        handle.write("ten,looc1,1,10\n11,,1,10\n")
    records = list(argrank.read([root]))
    rejected = [(r.where, r.field) for r in records if isinstance(r, Rejected)]
    assert rejected == [
        (f"{root}/unit-source-list.csv:line 14", "Argument Unit ID"),
        (f"{root}/unit-source-list.csv:line 15", "Corpus Name"),
        (f"{root}/groundtruth.json:nodes[2]", "nodes"),
        (f"{root}/groundtruth.json:nodes[3]", "nodes"),
        (f"{root}/groundtruth.json:edges[1]", "edges"),
        (f"{root}/groundtruth.json:edges[2]", "edges"),
        (f"{root}/groundtruth.json:edges[3]", "edges"),
        (f"{root}/groundtruth.json:edges[4]", "edges"),
        (f"{root}/groundtruth.json:edges[5]", "edges"),  # unit 8 is not in "nodes"
    ]
    reasons = {r.where: r.reason for r in records if isinstance(r, Rejected)}
    assert reasons[f"{root}/groundtruth.json:edges[5]"] == "unit 8 is not in 'nodes'"
    counts = Counter(type(r).__name__ for r in records)
    assert counts["ArgumentRecord"] == 5  # 4 benchmark arguments and the edge [2, 9]


def test_missing_files_and_columns_raise(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "unit-source-list.csv").unlink()
    with pytest.raises(LoadError, match="no such file"):
        list(argrank.read([root]))
    with pytest.raises(LoadError, match=r"no groundtruth\.json given"):
        list(argrank.read([FIXTURE / BENCHMARK]))
    root = _copy(tmp_path / "second")
    (root / BENCHMARK).write_text(
        _benchmark_line(1).replace("Mean rank,", "") + "\n", encoding="utf-8"
    )
    with pytest.raises(LoadError) as err:
        list(argrank.read([root]))
    assert err.value.field == "Mean rank"


def test_malformed_graph_raises(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "groundtruth.json").write_text('{"nodes": [1, 2]', encoding="utf-8")
    with pytest.raises(LoadError, match="malformed JSON: Expecting") as cut:
        list(argrank.read([root]))
    assert cut.value.field == "<json>"
    (root / "groundtruth.json").write_bytes(b'{"nodes": ["\xff"]}')
    with pytest.raises(LoadError, match="not UTF-8") as bad:
        list(argrank.read([root]))
    assert bad.value.field == "<encoding>"
    (root / "groundtruth.json").write_text('{"nodes": [1, 2]}', encoding="utf-8")
    with pytest.raises(LoadError) as err:
        list(argrank.read([root]))
    assert err.value.field == "edges"


def test_explicit_files_need_only_the_graph() -> None:
    records = list(argrank.read([FIXTURE / "groundtruth.json", FIXTURE / "node_mapping.json"]))
    arguments = [r for r in records if isinstance(r, ArgumentRecord)]
    assert len(arguments) == 7
    assert all(r.source is None and r.premises[0].text == "" for r in arguments)
    assert sum(isinstance(r, UnitRecord) for r in records) == 9


def test_an_id_beyond_64_bits_is_rejected_where_it_is_written(tmp_path: Path) -> None:
    # it used to reach the ingest as "unit 1234...: field 'argrank_id'", naming no file
    big = 123456789012345678901234567890
    graph = tmp_path / "groundtruth.json"
    graph.write_text(json.dumps({"nodes": [big, 2, 3], "edges": [[2, 3], [2, big], [big]]}))
    sources = tmp_path / "unit-source-list.csv"
    sources.write_text(
        "Argument Unit ID,Corpus Name,AIFdb Unit ID,AIFdb Map ID\n"
        f"2,looc1,1,10\n{big},looc1,2,10\n3,looc1,{2**64},10\n"
    )
    records = list(argrank.read([graph, sources]))
    rejected = [r for r in records if isinstance(r, Rejected)]
    assert [(r.where, r.field) for r in rejected] == [
        (f"{tmp_path}/unit-source-list.csv:line 3", "Argument Unit ID"),
        (f"{tmp_path}/unit-source-list.csv:line 4", "AIFdb Unit ID"),
        (f"{tmp_path}/groundtruth.json:nodes[0]", "nodes"),
        (f"{tmp_path}/groundtruth.json:edges[1]", "edges"),
        (f"{tmp_path}/groundtruth.json:edges[2]", "edges"),
    ]
    reasons = [r.reason for r in rejected]
    assert reasons[:4] == [
        "integer of 97 bits, beyond 64 bits",
        "integer of 65 bits, beyond 64 bits",
        "integer of 97 bits, beyond 64 bits",
        "integer of 97 bits, beyond 64 bits",
    ]
    assert reasons[4].startswith("not a [conclusion id, premise id] pair")
    units = [r for r in records if isinstance(r, UnitRecord)]
    assert [u.where for u in units] == [
        f"{tmp_path}/groundtruth.json:edges[0] (unit 2)",
        f"{tmp_path}/groundtruth.json:edges[0] (unit 3)",
    ]


def test_a_benchmark_premise_id_beyond_64_bits_is_rejected(tmp_path: Path) -> None:
    ranks = "1,1.0,1,1,1,1,1,1,1"
    root = _with_benchmark_rows(
        tmp_path, f"601,{ranks},1,Claim,1,Claim.,Text.,{2**70},Premise, ,, ,, ,,,,"
    )
    [problem] = [r for r in argrank.read([root]) if isinstance(r, Rejected)]
    assert (problem.where, problem.field) == (
        f"{root}/{BENCHMARK}:line 2",
        "Premise 1 argument unit ID",
    )
    assert problem.reason == "integer of 71 bits, beyond 64 bits"


def test_a_corpus_name_that_is_not_utf8_is_rejected_on_its_row(tmp_path: Path) -> None:
    graph = tmp_path / "groundtruth.json"
    graph.write_text(json.dumps({"nodes": [2], "edges": []}))
    sources = tmp_path / "unit-source-list.csv"
    sources.write_bytes(
        b"Argument Unit ID,Corpus Name,AIFdb Unit ID,AIFdb Map ID\n2,loo\xe71,1,10\n"
    )
    records = list(argrank.read([graph, sources]))
    [problem] = [r for r in records if isinstance(r, Rejected)]
    assert (problem.where, problem.field) == (
        f"{tmp_path}/unit-source-list.csv:line 2",
        "Corpus Name",
    )
    assert "not UTF-8" in problem.reason
