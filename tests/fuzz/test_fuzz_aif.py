"""Fuzz tier: the AIF reader on hostile maps, in files, directories and zip archives.

Maps are drawn in both flavours (AIFdb, OVA) with node ids from a small pool, so that most edges
name real nodes and the argument, undercut and left-out paths are reached, not only rejections.
Zips are read with small :class:`~argkb.loaders.aif.ZipLimits` so that the caps trip on inputs of
a few kB, and are damaged byte by byte (truncated, overwritten).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from fuzzing import (
    HOSTILE,
    TEXTISH,
    damaged,
    dumps,
    encode,
    exercise,
    fuzz_settings,
    json_value,
    mostly,
    zip_bytes,
)
from hypothesis import example, given
from hypothesis import strategies as st

from argkb.loaders import aif, reader
from argkb.loaders.aif import ZipLimits
from argkb.loaders.records import ArgumentRecord

pytestmark = pytest.mark.fuzz

SMALL_ZIPS = ZipLimits(member=64 * 1024, total=160 * 1024, ratio=20.0, ratio_floor=8 * 1024)

NODE_ID = mostly(
    st.integers(0, 8) | st.integers(0, 8).map(str), st.sampled_from([" 3 ", "", True, 1.5]), HOSTILE
)
NODE_TYPE = mostly(
    st.sampled_from(["I", "I", "I", "RA", "RA", "CA", "S", "L", "YA", "MA", "TA", "PA"]),
    st.sampled_from(["ra", " ca ", "i", "X", ""]),
    HOSTILE,
)


def _node(id_key: str) -> st.SearchStrategy[Any]:
    return mostly(
        st.fixed_dictionaries(
            {id_key: NODE_ID, "type": NODE_TYPE, "text": TEXTISH},
            optional={"scheme": TEXTISH, "schemeID": NODE_ID},
        ),
        st.fixed_dictionaries({}, optional={id_key: NODE_ID, "type": NODE_TYPE, "text": TEXTISH}),
        HOSTILE,
    )


AIFDB_EDGE = mostly(
    st.fixed_dictionaries({"fromID": NODE_ID, "toID": NODE_ID}, optional={"edgeID": NODE_ID}),
    HOSTILE,
)
OVA_END = mostly(NODE_ID | st.fixed_dictionaries({"id": NODE_ID}), HOSTILE)
OVA_EDGE = mostly(st.fixed_dictionaries({"from": OVA_END, "to": OVA_END}), HOSTILE)


def _map(id_key: str, edge: st.SearchStrategy[Any], extra: str) -> st.SearchStrategy[Any]:
    return st.fixed_dictionaries(
        {
            "nodes": mostly(st.lists(_node(id_key), max_size=10), HOSTILE),
            "edges": mostly(st.lists(edge, max_size=14), HOSTILE),
        },
        optional={extra: json_value(3)},
    )


@st.composite
def argument_map(draw: st.DrawFn) -> dict[str, Any]:
    """A map built as AIF intends (I-nodes, RA/CA/S nodes with premises and a conclusion, CA
    nodes attacking inferences, locutions), then with a few fields made hostile: so that the
    argument, undercut, self-loop and several-conclusions paths are reached."""
    ova = draw(st.booleans())
    id_key = "id" if ova else "nodeID"
    n_units = draw(st.integers(1, 5))
    nodes: list[Any] = [
        {id_key: i, "type": "I", "text": draw(mostly(st.just(f"Claim number {i}"), TEXTISH))}
        for i in range(n_units)
    ]
    edges: list[tuple[int, int]] = []
    for _ in range(draw(st.integers(1, 4))):
        nid = len(nodes)
        nodes.append(
            {
                id_key: nid,
                "type": draw(st.sampled_from(["RA", "CA", "S", "ra", "MA"])),
                "text": draw(st.sampled_from(["Default Inference", "Default Conflict"])),
            }
        )
        for premise in draw(st.lists(st.integers(0, n_units - 1), min_size=1, max_size=3)):
            edges.append((premise, nid))
        for target in draw(st.lists(st.integers(0, nid), min_size=1, max_size=2)):
            edges.append((nid, target))  # to an I-node, or to an inference (an undercut)
    if draw(st.booleans()):
        nodes.append({id_key: len(nodes), "type": "L", "text": "Bob: cars pollute"})
        edges.append((len(nodes) - 1, draw(st.integers(0, len(nodes) - 2))))
    for _ in range(draw(st.sampled_from([0, 0, 1, 2]))):  # a few hostile fields
        node = nodes[draw(st.integers(0, len(nodes) - 1))]
        node[draw(st.sampled_from([id_key, "type", "text"]))] = draw(HOSTILE)
    if ova:
        edge_list: list[Any] = [{"from": {"id": a}, "to": b} for a, b in edges]
    else:
        edge_list = [{"edgeID": i, "fromID": str(a), "toID": b} for i, (a, b) in enumerate(edges)]
    return {"nodes": nodes, "edges": edge_list}


MAP = mostly(
    argument_map(),
    _map("nodeID", AIFDB_EDGE, "locutions"),
    _map("id", OVA_EDGE, "analysis"),
    _map("nodeID", OVA_EDGE, "participants"),
    json_value(),
)


@st.composite
def map_bytes(draw: st.DrawFn) -> bytes:
    ascii_only = draw(st.booleans())
    return draw(damaged(encode(dumps(draw(MAP), ascii_only=ascii_only))))


@fuzz_settings(80)
@given(map_bytes(), st.sampled_from(["map.json", "map.txt", "nodeset1.JSON"]))
@example(b"[" * 100_000, "map.json")
@example(b'{"nodes": [{"nodeID": ' + b"1" * 5000 + b'}], "edges": []}', "map.json")
def test_aif_map_file(data: bytes, name: str) -> None:
    with tempfile.TemporaryDirectory(prefix="argkb-fuzz-") as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        exercise(lambda: reader("aif")([path]), len(data))


MEMBER_NAME = st.sampled_from(
    ["a.json", "b.json", "sub/a.json", "__MACOSX/._a.json", "notes.txt", "c.JSON", "d/"]
)


@st.composite
def archive(draw: st.DrawFn) -> bytes:
    members = draw(st.lists(st.tuples(MEMBER_NAME, map_bytes()), max_size=4))
    if draw(st.booleans()):  # a member that decompresses far past its size: a small zip bomb
        members.append(("bomb.json", b"{" + b" " * draw(st.sampled_from([9_000, 70_000])) + b"}"))
    data = zip_bytes(members, compress=draw(st.booleans()))
    for _ in range(draw(st.integers(0, 2))):
        data = draw(damaged(data))
    return data


@fuzz_settings(60)
@given(archive())
@example(b"PK\x03\x04")
@example(b"")
def test_aif_zip(data: bytes) -> None:
    with tempfile.TemporaryDirectory(prefix="argkb-fuzz-") as folder:
        path = Path(folder) / "maps.zip"
        path.write_bytes(data)
        exercise(lambda: aif.read([path], zip_limits=SMALL_ZIPS), len(data))


GOOD_MAP = (
    b'{"nodes": [{"nodeID": "1", "type": "I", "text": "Cars pollute the air of cities"},'
    b'{"nodeID": "2", "type": "I", "text": "We should ban cars from city centres"},'
    b'{"nodeID": "3", "type": "RA", "text": "Default Inference"}],'
    b'"edges": [{"edgeID": "1", "fromID": "1", "toID": "3"},'
    b'{"edgeID": "2", "fromID": "3", "toID": "2"}]}'
)


@pytest.mark.parametrize("compress", [True, False], ids=["deflated", "stored"])
def test_aif_zip_with_any_one_byte_damaged(compress: bool) -> None:
    """Every position of a small zip of one good map overwritten with 0x00 and with 0xff (the
    local header, the member's data, the central directory): the property holds for each."""
    data = zip_bytes([("map.json", GOOD_MAP)], compress=compress)
    with tempfile.TemporaryDirectory(prefix="argkb-fuzz-") as folder:
        path = Path(folder) / "maps.zip"
        read = 0
        for at in range(len(data)):
            for junk in (b"\x00", b"\xff"):
                path.write_bytes(data[:at] + junk + data[at + 1 :])
                items = exercise(lambda: aif.read([path], zip_limits=SMALL_ZIPS), len(data))
                read += any(isinstance(item, ArgumentRecord) for item in items)
        assert read > 0  # damage to some bytes (e.g. the timestamp) leaves the map readable


@fuzz_settings(40)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "x/a", "x/y/c"]), map_bytes()), max_size=4))
def test_aif_directory(maps: list[tuple[str, bytes]]) -> None:
    with tempfile.TemporaryDirectory(prefix="argkb-fuzz-") as folder:
        root = Path(folder) / "maps"
        root.mkdir()
        for stem, data in maps:
            path = root / f"{stem}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        size = sum(len(data) for _, data in maps)
        exercise(lambda: reader("aif")([root]), size)
