"""The AIF loader (AIFdb and OVA JSON maps) on hand-written maps: expected records, by hand."""

from __future__ import annotations

import dataclasses
import json
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest

from argkb.errors import LoadError
from argkb.loaders.aif import FORMAT, ZipLimits, read
from argkb.loaders.records import (
    ArgumentRecord,
    LeftOut,
    Record,
    Rejected,
    SourceRecord,
    UndercutRecord,
    UnitRecord,
    UnitRef,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "aif"
AIFDB_101 = FIXTURES / "aifdb" / "nodeset101.json"
AIFDB_102 = FIXTURES / "aifdb" / "nodeset102.json"
OVA_201 = FIXTURES / "ova" / "nodeset201.json"
BROKEN_150 = FIXTURES / "broken" / "nodeset150.json"


def _u(text: str) -> UnitRef:
    return UnitRef(text)


def _aifdb(path: Path, nodes: list[tuple[str, str, str]], edges: list[tuple[str, str]]) -> Path:
    """Write a small AIFdb map: nodes as (id, type, text), edges as (from, to) numbered 1, 2, ..."""
    path.write_text(
        json.dumps(
            {
                "nodes": [{"nodeID": i, "type": t, "text": x} for i, t, x in nodes],
                "edges": [
                    {"edgeID": str(k), "fromID": a, "toID": b}
                    for k, (a, b) in enumerate(edges, start=1)
                ],
                "locutions": [],
            }
        ),
        encoding="utf-8",
    )
    return path


def _without_location(records: list[Record | Rejected | LeftOut]) -> list[Any]:
    """Records with ``where`` and the source's ``path`` blanked, to compare across input kinds."""
    out: list[Any] = []
    for record in records:
        if isinstance(record, Rejected):
            out.append(record.field)
            continue
        if isinstance(record, SourceRecord):
            props = tuple(p for p in record.properties if p[0] != "path")
            record = dataclasses.replace(record, properties=props)
        out.append(dataclasses.replace(record, where=""))
    return out


def test_format_name() -> None:
    assert FORMAT == "aif"


def test_aifdb_map_yields_exactly_the_expected_records() -> None:
    loc = str(AIFDB_101)
    sid = "aif:nodeset101"
    expected = [
        SourceRecord(sid, (("format", "aifdb"), ("path", loc)), where=loc),
        ArgumentRecord(
            aid="aif:nodeset101:10",
            conclusion=_u("We should phase out coal"),
            premises=(
                _u("Burning coal emits a lot of CO2"),
                _u("CO2 emissions drive climate change"),
            ),
            stance="pro",
            source=sid,
            properties=(("scheme", "Default Inference"), ("scheme_id", "72")),
            where=f"{loc}#node 10",
        ),
        # no scheme key: AIFdb's text of an S-node is the scheme name
        ArgumentRecord(
            aid="aif:nodeset101:11",
            conclusion=_u("Coal plants provide many jobs"),
            premises=(_u("Coal mining employs 40,000 people"),),
            stance="pro",
            source=sid,
            properties=(("scheme", "Default Inference"),),
            where=f"{loc}#node 11",
        ),
        ArgumentRecord(
            aid="aif:nodeset101:12",
            conclusion=_u("We should phase out coal"),
            premises=(_u("Coal plants provide many jobs"),),
            stance="con",
            source=sid,
            properties=(("scheme", "Default Conflict"), ("scheme_id", "71")),
            where=f"{loc}#node 12",
        ),
        # I-nodes in no RA/CA (one alone, one only in an MA rephrase) are still units
        UnitRecord(_u("Good evening and welcome to the debate"), source=sid, where=f"{loc}#node 6"),
        UnitRecord(_u("Coal should be phased out"), source=sid, where=f"{loc}#node 7"),
    ]
    assert list(read([AIFDB_101])) == expected


def test_aifdb_integer_ids() -> None:
    records = list(read([AIFDB_102]))
    assert [type(r) for r in records] == [SourceRecord, ArgumentRecord]
    argument = records[1]
    assert isinstance(argument, ArgumentRecord)
    assert argument.aid == "aif:nodeset102:3"
    assert argument.conclusion == _u("Nuclear power is safe")
    assert argument.premises == (_u("Modern reactors shut down passively"),)
    assert argument.properties == (("scheme", "Default Inference"), ("scheme_id", "72"))


def test_ova_map_yields_exactly_the_expected_records() -> None:
    loc = str(OVA_201)
    sid = "aif:nodeset201"
    records = list(read([OVA_201]))
    assert records[:3] == [
        SourceRecord(sid, (("format", "ova"), ("path", loc)), where=loc),
        ArgumentRecord(
            aid="aif:nodeset201:310",
            conclusion=_u("Berlin should separate its waste"),
            premises=(_u("Separated waste can be recycled"), _u("Recycling saves resources")),
            stance="pro",
            source=sid,
            properties=(("scheme", "Positive Consequences"), ("scheme_id", "27")),
            where=f"{loc}#node 310",
        ),
        ArgumentRecord(
            aid="aif:nodeset201:311",
            conclusion=_u("Berlin should separate its waste"),
            premises=(_u("Separating waste is cumbersome"),),
            stance="con",
            source=sid,
            properties=(("scheme", "Default Conflict"), ("scheme_id", "71")),
            where=f"{loc}#node 311",
        ),
    ]
    # CA 312 attacks CA 311 (an attack on an attack): an undercut of argument 311, after it
    assert records[3:] == [
        UndercutRecord(
            aid="aif:nodeset201:312",
            premises=(_u("Three bins hardly take any effort"),),
            target="aif:nodeset201:311",
            source=sid,
            properties=(("scheme", "Default Conflict"), ("scheme_id", "71")),
            where=f"{loc}#node 312",
        )
    ]


def test_directory_and_zip_give_the_records_of_the_single_files(tmp_path: Path) -> None:
    singles = list(read([AIFDB_101])) + list(read([AIFDB_102])) + list(read([OVA_201]))

    folder = tmp_path / "maps"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(AIFDB_101, folder / "nodeset101.json")
    shutil.copy(AIFDB_102, folder / "nodeset102.json")
    shutil.copy(OVA_201, folder / "sub" / "nodeset201.json")
    (folder / "notes.txt").write_text("not a map")
    from_dir = list(read([folder]))
    assert _without_location(from_dir) == _without_location(singles)
    assert from_dir[-1].where == f"{folder / 'sub' / 'nodeset201.json'}#node 312"

    archive = tmp_path / "maps.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        # written out of order: members are read sorted by name
        zf.write(OVA_201, "sub/nodeset201.json")
        zf.write(AIFDB_102, "nodeset102.json")
        zf.write(AIFDB_101, "nodeset101.json")
        zf.writestr("__MACOSX/._nodeset101.json", b"\x00\x05\x16\x07")
        zf.writestr("README", "not a map")
    from_zip = list(read([archive]))
    assert _without_location(from_zip) == _without_location(singles)
    assert from_zip[0] == SourceRecord(
        "aif:nodeset101",
        (("format", "aifdb"), ("path", f"{archive}:nodeset101.json")),
        where=f"{archive}:nodeset101.json",
    )
    assert from_zip[1].where == f"{archive}:nodeset101.json#node 10"


def test_a_malformed_map_is_one_rejection_among_good_maps(tmp_path: Path) -> None:
    folder = tmp_path / "maps"
    folder.mkdir()
    for path in (AIFDB_101, BROKEN_150, OVA_201):  # the broken one sorts between the good ones
        shutil.copy(path, folder / path.name)
    records = list(read([folder]))

    rejected = [r for r in records if isinstance(r, Rejected)]
    assert [(r.where, r.field) for r in rejected if r.field == "<json>"] == [
        (str(folder / "nodeset150.json"), "<json>")
    ]
    assert "malformed JSON" in rejected[0].reason
    good = list(read([AIFDB_101])) + list(read([OVA_201]))
    assert _without_location(
        [r for r in records if r.where != str(folder / "nodeset150.json")]
    ) == (_without_location(good))


def test_undercut_attacks_the_argument_it_points_at(tmp_path: Path) -> None:
    path = _aifdb(
        tmp_path / "undercut.json",
        [
            ("1", "I", "Tom is a bird"),
            ("2", "I", "Tom can fly"),
            ("3", "I", "Tom is a penguin"),
            ("10", "RA", "Default Inference"),
            ("11", "CA", "Default Conflict"),
        ],
        [("1", "10"), ("10", "2"), ("3", "11"), ("11", "10")],
    )
    records = list(read([path]))
    kinds = [type(r).__name__ for r in records]
    assert kinds == ["SourceRecord", "ArgumentRecord", "UndercutRecord"]
    argument, undercut = records[1:]
    assert isinstance(argument, ArgumentRecord) and argument.aid == "aif:undercut:10"
    assert undercut == UndercutRecord(
        aid="aif:undercut:11",
        premises=(_u("Tom is a penguin"),),
        target="aif:undercut:10",
        source="aif:undercut",
        properties=(("scheme", "Default Conflict"),),
        where=f"{path}#node 11",
    )


def test_undercuts_follow_their_targets_or_are_left_out(tmp_path: Path) -> None:
    # CA 11 attacks CA 12 (listed later), which attacks RA 10; CA 13 attacks RA 14, which has
    # no premise (left out), so 13 is left out too; RA 15 supports RA 10 (not modelled)
    path = _aifdb(
        tmp_path / "chain.json",
        [
            ("1", "I", "Tom is a bird"),
            ("2", "I", "Tom can fly"),
            ("3", "I", "Tom is a penguin"),
            ("4", "I", "The penguin is a toy"),
            ("5", "I", "Birds fly"),
            ("11", "CA", "Default Conflict"),
            ("10", "RA", "Default Inference"),
            ("12", "CA", "Default Conflict"),
            ("13", "CA", "Default Conflict"),
            ("14", "RA", "Default Inference"),
            ("15", "RA", "Default Inference"),
        ],
        [("1", "10"), ("10", "2"), ("3", "12"), ("12", "10"), ("4", "11"), ("11", "12"),
         ("5", "13"), ("13", "14"), ("14", "2"), ("5", "15"), ("15", "10")],
    )  # fmt: skip
    records = [r for r in read([path]) if not isinstance(r, SourceRecord)]
    summary = [(type(r).__name__, r.where.removeprefix(f"{path}#node ")) for r in records]
    assert summary == [
        ("ArgumentRecord", "10"),
        ("LeftOut", "14"),
        ("LeftOut", "15"),
        ("UndercutRecord", "12"),
        ("UndercutRecord", "11"),
        ("LeftOut", "13"),
        ("UnitRecord", "5"),  # premise only of what was left out: still a unit
    ]
    targets = [r.target for r in records if isinstance(r, UndercutRecord)]
    assert targets == ["aif:chain:10", "aif:chain:12"]
    left = [r for r in records if isinstance(r, LeftOut)]
    assert [r.kind for r in left] == [
        "inference without an I-node premise",
        "support of an inference",
        "undercut of an inference left out",
    ]


def test_unknown_edge_endpoint_rejects_the_edge_and_its_argument(tmp_path: Path) -> None:
    path = _aifdb(
        tmp_path / "dangling.json",
        [("1", "I", "A"), ("2", "I", "B"), ("10", "RA", "Default Inference")],
        [("2", "10"), ("99", "10"), ("10", "1")],
    )
    records = list(read([path]))
    rejected = [r for r in records if isinstance(r, Rejected)]
    assert rejected == [
        Rejected(f"{path}#edge 2", "fromID", "unknown node id '99'"),
        Rejected(
            f"{path}#node 10",
            "edges",
            "incomplete: edge 2 has an unusable endpoint (rejected); argument skipped",
        ),
    ]
    # both I-nodes remain units of the corpus
    units = [r.unit.text for r in records if isinstance(r, UnitRecord)]
    assert units == ["A", "B"]


def test_bad_nodes_name_node_and_field(tmp_path: Path) -> None:
    path = tmp_path / "badnodes.json"
    path.write_text(
        json.dumps(
            {
                "nodes": [
                    {"nodeID": "1", "type": "I", "text": "Conclusion"},
                    {"nodeID": "2", "type": "I", "text": "  "},
                    {"nodeID": "3", "type": "I"},
                    {"type": "I", "text": "no id"},
                    {"nodeID": "5", "text": "no type"},
                    {"nodeID": "1", "type": "I", "text": "duplicate"},
                    {"nodeID": "10", "type": "RA", "text": "Default Inference"},
                ],
                "edges": [
                    {"edgeID": "e1", "fromID": "2", "toID": "10"},
                    {"edgeID": "e2", "fromID": "10", "toID": "1"},
                    {"edgeID": "e3", "toID": "1"},
                ],
            }
        )
    )
    rejected = [r for r in read([path]) if isinstance(r, Rejected)]
    assert [(r.where.removeprefix(str(path)), r.field) for r in rejected] == [
        ("#node 2", "text"),
        ("#node 3", "text"),
        ("#node[3]", "nodeID"),
        ("#node 5", "type"),
        ("#node 1", "nodeID"),
        ("#edge e3", "fromID"),
        ("#node 10", "premises"),
    ]
    assert rejected[0].reason == "empty text of an I-node"
    assert rejected[1].reason == "missing"
    assert rejected[-1].reason == "I-node 2 has no usable text (rejected)"


def test_argument_without_premise_or_with_two_conclusions(tmp_path: Path) -> None:
    path = _aifdb(
        tmp_path / "shapes.json",
        [
            ("1", "I", "A"),
            ("2", "I", "B"),
            ("3", "I", "C"),
            ("10", "RA", "Default Inference"),
            ("11", "CA", "Default Conflict"),
        ],
        [("10", "1"), ("3", "11"), ("11", "1"), ("11", "2")],
    )
    records = list(read([path]))
    assert not [r for r in records if isinstance(r, Rejected)]  # valid AIF, not modelled
    left = [r for r in records if isinstance(r, LeftOut)]
    assert [(r.where.removeprefix(str(path)), r.kind) for r in left] == [
        ("#node 10", "inference without an I-node premise"),
        ("#node 11", "several conclusions"),
    ]
    assert "2 I-nodes (1, 2)" in left[1].reason


def test_an_edge_from_an_argument_to_another_inference_is_left_out_not_dropped(
    tmp_path: Path,
) -> None:
    # RA 10 (1 -> 2) also points at RA 11 (3 -> 4): both arguments load, and the edge 10 -> 11,
    # which argkb does not model, is a warning (it was dropped without one)
    path = _aifdb(
        tmp_path / "ra_to_ra.json",
        [
            ("1", "I", "A"),
            ("2", "I", "B"),
            ("3", "I", "C"),
            ("4", "I", "D"),
            ("10", "RA", "Default Inference"),
            ("11", "RA", "Default Inference"),
        ],
        [("1", "10"), ("10", "2"), ("3", "11"), ("11", "4"), ("10", "11")],
    )
    records = list(read([path]))
    arguments = [r for r in records if isinstance(r, ArgumentRecord)]
    assert [(a.aid, a.premises, a.conclusion) for a in arguments] == [
        ("aif:ra_to_ra:10", (_u("A"),), _u("B")),
        ("aif:ra_to_ra:11", (_u("C"),), _u("D")),
    ]
    [left] = [r for r in records if isinstance(r, LeftOut)]
    assert (left.where, left.kind) == (f"{path}#node 10", "edge to an inference")
    assert left.reason == (
        "RA node also points at RA node 11; the argument loads, that edge is left out"
    )


def test_self_loop_is_left_out_and_its_unit_kept(tmp_path: Path) -> None:
    path = _aifdb(
        tmp_path / "loop.json",
        [
            ("1", "I", "We are talking about India"),
            ("2", "I", "we are talking about India."),  # same unit identity as node 1
            ("10", "RA", "Default Inference"),
            ("11", "RA", "Default Inference"),
        ],
        [("1", "10"), ("10", "1"), ("2", "11"), ("11", "1")],
    )
    records = list(read([path]))
    left = [r for r in records if isinstance(r, LeftOut)]
    assert [r.reason for r in left] == [
        "premise I-node 1 is the conclusion (self-loop); left out",
        "premise I-node 2 has the same text as I-node 1, which is the conclusion (self-loop); "
        "left out",
    ]
    assert not [r for r in records if isinstance(r, Rejected)]
    assert [r.where for r in records if isinstance(r, UnitRecord)] == [
        f"{path}#node 1",
        f"{path}#node 2",
    ]


def test_invalid_utf8_is_replaced_and_flagged(tmp_path: Path) -> None:
    path = _aifdb(tmp_path / "latin1.json", [("1", "I", "Caf\u00e9 culture")], [])
    path.write_bytes(path.read_bytes().replace(b"\\u00e9", b"\xe9"))
    source, unit = list(read([path]))
    assert isinstance(source, SourceRecord)
    assert ("invalid_utf8", True) in source.properties
    assert isinstance(unit, UnitRecord) and unit.unit.text == "Caf\ufffd culture"


@pytest.mark.parametrize(
    ("bom", "codec", "name"),
    [
        (b"\xff\xfe", "utf-16-le", "UTF-16-LE"),
        (b"\xfe\xff", "utf-16-be", "UTF-16-BE"),
        (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32-LE"),
    ],
)
def test_a_utf16_or_utf32_map_is_rejected_naming_the_encoding(
    tmp_path: Path, bom: bytes, codec: str, name: str
) -> None:
    # it used to be "malformed JSON: Expecting value: line 1 column 1"
    good = _aifdb(tmp_path / "good.json", [("1", "I", "Caf\u00e9 culture")], [])
    data = bom + good.read_text(encoding="utf-8").encode(codec)
    path = tmp_path / "wide.json"
    path.write_bytes(data)
    archive = tmp_path / "maps.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("wide.json", data)
    from_file, from_zip = list(read([path, good])), list(read([archive]))
    for where, problem in ((str(path), from_file[0]), (f"{archive}:wide.json", from_zip[0])):
        assert isinstance(problem, Rejected) and problem.where == where
        assert problem.field == "<encoding>"
        assert problem.reason == f"file is {name}; convert it to UTF-8"
    assert isinstance(from_file[1], SourceRecord)  # the next map still loads


def test_not_a_map_and_duplicate_map_ids(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "ranking.json").write_text('{"candidates": [], "rankings": {}}')
    (tmp_path / "a" / "list.json").write_text("[1, 2]")
    shutil.copy(AIFDB_102, tmp_path / "a" / "nodeset102.json")
    shutil.copy(AIFDB_102, tmp_path / "b" / "nodeset102.json")
    rejected = [r for r in read([tmp_path]) if isinstance(r, Rejected)]
    assert [(Path(r.where).relative_to(tmp_path).as_posix(), r.field) for r in rejected] == [
        ("a/list.json", "<json>"),
        ("a/ranking.json", "nodes"),
        ("b/nodeset102.json", "<map>"),
    ]


def test_a_single_path_is_accepted() -> None:
    assert list(read(str(AIFDB_102))) == list(read([AIFDB_102]))


def test_usage_errors_raise_when_read_is_called(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as missing:
        read([AIFDB_101, tmp_path / "nope.json"])  # no iteration needed
    assert missing.value.where == str(tmp_path / "nope.json")

    fake = tmp_path / "maps.zip"
    fake.write_text("not a zip")
    with pytest.raises(LoadError, match="not a readable zip"):
        read([fake])

    (tmp_path / "empty").mkdir()
    with pytest.raises(LoadError, match=r"empty directory"):
        read([tmp_path / "empty"])
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("no map")
    with pytest.raises(LoadError, match=r"no \*\.json"):
        read([tmp_path / "notes"])


def _bomb(tmp_path: Path, size: int) -> Path:
    """A zip holding one good map and a member of ``size`` bytes of spaces (compresses ~1000:1)."""
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.write(AIFDB_102, "nodeset102.json")
        with zf.open("big.json", "w", force_zip64=True) as member:
            for _ in range(size // 2**20):
                member.write(b" " * 2**20)
    return archive


def test_a_zip_bomb_is_refused_naming_file_and_member(tmp_path: Path) -> None:
    archive = _bomb(tmp_path, 300 * 2**20)  # 300 MiB of spaces in about 300 KB
    assert archive.stat().st_size < 2**20
    with pytest.raises(LoadError) as caught:
        read([archive])
    err = caught.value
    assert err.where == f"{archive}:big.json" and err.field == "<zip>"
    assert "more than 256 MiB" in err.reason and "\n" not in str(err)
    # the ratio cap on its own (a member under the size cap)
    (tmp_path / "small").mkdir()
    smaller = _bomb(tmp_path / "small", 8 * 2**20)
    with pytest.raises(LoadError, match=r"big\.json.*compressed more than 100:1"):
        read([smaller])
    # configurable: with room for it, the member is read (and rejected: it holds no JSON)
    records = list(read([smaller], zip_limits=ZipLimits(ratio=10_000)))
    assert [(type(r).__name__, r.where) for r in records][:1] == [
        ("Rejected", f"{smaller}:big.json")
    ]
    assert isinstance(records[-1], ArgumentRecord)


def test_reading_a_zip_member_stops_at_the_limit_whatever_the_header_says(
    tmp_path: Path,
) -> None:
    from argkb.loaders import aif

    archive = _bomb(tmp_path, 8 * 2**20)
    # past the header check (as a forged header would be): the bytes read are counted
    item = aif._Input(archive, "zip", ("big.json",))
    limits = ZipLimits(member=2 * 2**20, ratio=10**9)
    with pytest.raises(LoadError, match=r"big\.json.*more than 2 MiB"):
        list(aif._read_zip(item, {}, limits))


def test_node_types_are_read_in_any_case(tmp_path: Path) -> None:
    path = _aifdb(
        tmp_path / "lower.json",
        [("1", "i", "Tom is a bird"), ("2", "I", "Tom can fly"), ("10", "ra", "Default")],
        [("1", "10"), ("10", "2")],
    )
    arguments = [r for r in read([path]) if isinstance(r, ArgumentRecord)]
    assert [(a.aid, a.stance, a.conclusion, a.premises) for a in arguments] == [
        ("aif:lower:10", "pro", _u("Tom can fly"), (_u("Tom is a bird"),))
    ]


def test_an_unknown_node_type_is_rejected_naming_node_and_field(tmp_path: Path) -> None:
    path = _aifdb(
        tmp_path / "odd.json",
        [("1", "I", "Tom is a bird"), ("2", "I", "Tom can fly"), ("10", "XYZ", "Odd")],
        [("1", "10"), ("10", "2")],
    )
    records = list(read([path]))
    rejected = [r for r in records if isinstance(r, Rejected)]
    assert rejected[0] == Rejected(
        f"{path}#node 10",
        "type",
        "unknown node type 'XYZ' (AIF: CA, I, L, MA, PA, RA, S, TA, YA)",
    )
    assert not [r for r in records if isinstance(r, ArgumentRecord)]


@pytest.mark.parametrize(("opening", "closing"), [("[", "]"), ('{"a": ', "}")])
def test_a_map_nested_200000_levels_deep_says_so(
    tmp_path: Path, opening: str, closing: str
) -> None:
    """It was "malformed JSON: maximum recursion depth exceeded while decoding a JSON array
    from a unicode string" (the map is no malformed JSON, and the words are Python's); it now
    says the map is nested too deeply, and how deep, as a file and as a zip member."""
    levels = 200_000
    data = '{"nodes": [], "edges": [], "x": ' + opening * levels + "1" + closing * levels + "}"
    path = tmp_path / "deep.json"
    path.write_text(data)
    archive = tmp_path / "maps.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("deep.json", data)
    good = _aifdb(tmp_path / "good.json", [("1", "I", "Still read")], [])
    from_file, from_zip = list(read([path, good])), list(read([archive]))
    for where, problem in ((str(path), from_file[0]), (f"{archive}:deep.json", from_zip[0])):
        assert isinstance(problem, Rejected) and (problem.where, problem.field) == (where, "<json>")
        assert problem.reason.startswith(f"nested too deeply: JSON {levels + 1:,} levels deep, ")
        assert "recursion" not in problem.reason
    assert isinstance(from_file[1], SourceRecord)  # the next map still loads
