"""One AIF argument map (AIFdb or OVA JSON) as records, for :mod:`argkb.loaders.aif`, which finds
the maps (files, folders, zips) and documents the mapping: RA/CA/S nodes become arguments, a CA
node that attacks an inference an undercut, and unused I-nodes units.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from argkb.loaders.common import bom_encoding, max_json_depth, not_utf8_message
from argkb.loaders.records import (
    ArgumentRecord,
    LeftOut,
    Properties,
    Record,
    Rejected,
    Scalar,
    SourceRecord,
    StanceLabel,
    UndercutRecord,
    UnitRecord,
    UnitRef,
)

_ARGUMENT_TYPES: dict[str, StanceLabel] = {"RA": "pro", "CA": "con", "S": "unknown"}
# node types of AIF and AIF+ (upper case; a map's spelling is upper-cased): information,
# locutions, inference, conflict, rephrase, preference, transitions, illocutions
_NODE_TYPES = {"I", "L", "RA", "CA", "MA", "PA", "TA", "YA", *_ARGUMENT_TYPES}


@dataclass(frozen=True, slots=True)
class _Flavour:
    """The key names of one JSON flavour of AIF."""

    name: Literal["aifdb", "ova"]
    node_id: str
    edge_from: str
    edge_to: str
    edge_id: str | None


_AIFDB = _Flavour("aifdb", "nodeID", "fromID", "toID", "edgeID")
_OVA = _Flavour("ova", "id", "from", "to", None)


@dataclass(slots=True)
class _Node:
    """What the argument pass needs of a node; ``ok`` is False when it was rejected."""

    type: str | None
    text: str | None
    raw: dict[str, Any]
    ok: bool


@dataclass(slots=True)
class _Links:
    """The edges at the RA/CA nodes of one map, and the ones a rejected edge left incomplete."""

    into: dict[str, list[str]] = field(default_factory=dict)
    out_of: dict[str, list[str]] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)


def _too_deep(data: bytes) -> str:
    """Why a map that Python's JSON parser gave up on is refused: how deep it is nested (the
    AIFdb, OVA and microtext maps of tests/fixtures and ../shared/data nest 2 to 5 levels)."""
    import io

    depth = max_json_depth(io.BytesIO(data))
    return (
        f"nested too deeply: JSON {depth:,} levels deep, more than Python's parser reads "
        f"(about {sys.getrecursionlimit():,}); AIF maps nest 2 to 5"
    )


def read_map(
    data: bytes, where: str, map_id: str, seen: dict[str, str]
) -> Iterator[Record | Rejected | LeftOut]:
    """All records of one map's bytes; ``where`` names the map in every record and rejection."""
    encoding = bom_encoding(data[:4])
    if encoding is not None:  # UTF-16/32: said as such, not as malformed JSON
        yield Rejected(where, "<encoding>", not_utf8_message(encoding))
        return
    if not data.removeprefix(b"\xef\xbb\xbf").strip():  # not json's "Expecting value"
        yield Rejected(where, "<file>", "no map: the file is empty")
        return
    try:
        text, replaced = data.decode("utf-8-sig"), False
    except UnicodeDecodeError:
        text, replaced = data.decode("utf-8-sig", errors="replace"), True
    try:
        obj = json.loads(text)
    except RecursionError:  # not "malformed": json's words name Python's recursion, not the map
        yield Rejected(where, "<json>", _too_deep(data))
        return
    except ValueError as err:
        yield Rejected(where, "<json>", f"malformed JSON: {err}")
        return
    if not isinstance(obj, dict):
        yield Rejected(where, "<json>", f"expected a JSON object (a map), got {_kind(obj)}")
        return
    nodes, edges = obj.get("nodes"), obj.get("edges")
    if not isinstance(nodes, list):
        yield Rejected(where, "nodes", f"expected a list of nodes, got {_kind(nodes)}")
        return
    if not isinstance(edges, list):
        yield Rejected(where, "edges", f"expected a list of edges, got {_kind(edges)}")
        return
    flavour = _detect(obj, nodes, edges)
    if flavour is None:
        yield Rejected(
            where,
            "<format>",
            "neither AIFdb (nodeID, fromID/toID) nor OVA (id, from/to) keys on nodes or edges",
        )
        return
    if map_id in seen:
        yield Rejected(
            where, "<map>", f"map id {map_id!r} was read already from {seen[map_id]}; aids collide"
        )
        return
    seen[map_id] = where

    sid = f"aif:{map_id}"
    props: list[tuple[str, Scalar]] = [("format", flavour.name), ("path", where)]
    if replaced:
        props.append(("invalid_utf8", True))
    yield SourceRecord(sid, tuple(props), where=where)

    table: dict[str, _Node] = {}
    yield from _read_nodes(nodes, flavour, where, table)
    links = _Links()
    yield from _read_edges(edges, flavour, where, table, links)

    used: set[str] = set()
    written: set[str] = set()  # S-nodes yielded as arguments (undercuts may target them)
    undercuts: list[tuple[str, str, tuple[str, ...]]] = []  # (CA node, target S-node, premises)
    for nid, node in table.items():
        if node.ok and node.type in _ARGUMENT_TYPES:
            found = _argument(nid, node, table, links, flavour, where, map_id, used)
            if isinstance(found, tuple):
                undercuts.append(found)
                continue
            if isinstance(found, ArgumentRecord):
                written.add(nid)
                yield from _edges_to_inferences(nid, node, table, links, found.where)
            yield found
    yield from _undercuts(undercuts, table, flavour, where, map_id, used, written)
    for nid, node in table.items():
        if node.ok and node.type == "I" and nid not in used:
            assert node.text is not None
            yield UnitRecord(UnitRef(node.text), source=sid, where=f"{where}#node {nid}")


def _detect(obj: dict[str, Any], nodes: list[Any], edges: list[Any]) -> _Flavour | None:
    for node in nodes:
        if isinstance(node, dict):
            if "nodeID" in node:
                return _AIFDB
            if "id" in node:
                return _OVA
    for edge in edges:
        if isinstance(edge, dict):
            if "fromID" in edge or "toID" in edge:
                return _AIFDB
            if "from" in edge or "to" in edge:
                return _OVA
    if "locutions" in obj:
        return _AIFDB
    if "analysis" in obj or "participants" in obj:
        return _OVA
    return _AIFDB if not nodes and not edges else None


def _read_nodes(
    nodes: list[Any], flavour: _Flavour, where: str, table: dict[str, _Node]
) -> Iterator[Rejected]:
    """Fill ``table`` (id -> node, rejected nodes included with ``ok=False``); yield rejections."""
    for index, raw in enumerate(nodes):
        if not isinstance(raw, dict):
            yield Rejected(
                f"{where}#node[{index}]", "<node>", f"expected an object, got {_kind(raw)}"
            )
            continue
        nid = _node_id(raw.get(flavour.node_id))
        if nid is None:
            yield Rejected(
                f"{where}#node[{index}]", flavour.node_id, _missing(raw, flavour.node_id, "an id")
            )
            continue
        at = f"{where}#node {nid}"
        if nid in table:
            yield Rejected(at, flavour.node_id, "duplicate node id; the first node with it is kept")
            continue
        ntype, text = raw.get("type"), raw.get("text")
        if not isinstance(ntype, str) or not ntype.strip():
            yield Rejected(at, "type", _missing(raw, "type", "a node type"))
            table[nid] = _Node(None, None, raw, ok=False)
            continue
        kind = ntype.strip().upper()  # "ra" is an RA node
        if kind not in _NODE_TYPES:
            known = ", ".join(sorted(_NODE_TYPES))
            yield Rejected(at, "type", f"unknown node type {ntype!r:.40} (AIF: {known})")
            table[nid] = _Node(kind, None, raw, ok=False)
        elif not isinstance(text, str):
            yield Rejected(at, "text", _missing(raw, "text", "a string"))
            table[nid] = _Node(kind, None, raw, ok=False)
        elif kind == "I" and not text.strip():
            yield Rejected(at, "text", "empty text of an I-node")
            table[nid] = _Node("I", None, raw, ok=False)
        else:
            table[nid] = _Node(kind, text, raw, ok=True)


def _read_edges(
    edges: list[Any], flavour: _Flavour, where: str, table: dict[str, _Node], links: _Links
) -> Iterator[Rejected]:
    """Record the edges at RA/CA nodes in ``links``; yield rejections of bad edges."""
    for index, raw in enumerate(edges):
        if not isinstance(raw, dict):
            yield Rejected(
                f"{where}#edge[{index}]", "<edge>", f"expected an object, got {_kind(raw)}"
            )
            continue
        eid = _node_id(raw.get(flavour.edge_id)) if flavour.edge_id else None
        label = f"edge {eid}" if eid is not None else f"edge[{index}]"
        at = f"{where}#{label}"
        ends: list[str | None] = []
        for key in (flavour.edge_from, flavour.edge_to):
            value = raw.get(key)
            if isinstance(value, dict):  # OVA writes the whole node
                value = value.get(flavour.node_id)
            nid = _node_id(value)
            if nid is None:
                yield Rejected(at, key, _missing(raw, key, "a node id"))
            elif nid not in table:
                yield Rejected(at, key, f"unknown node id {nid!r}")
                nid = None
            ends.append(nid)
        src, dst = ends
        if src is None or dst is None:
            for known in (src, dst):
                if known is not None and table[known].type in _ARGUMENT_TYPES:
                    links.broken.setdefault(known, f"{label} has an unusable endpoint (rejected)")
            continue
        if table[dst].type in _ARGUMENT_TYPES:
            links.into.setdefault(dst, []).append(src)
        if table[src].type in _ARGUMENT_TYPES:
            links.out_of.setdefault(src, []).append(dst)


def _argument(
    nid: str,
    node: _Node,
    table: dict[str, _Node],
    links: _Links,
    flavour: _Flavour,
    where: str,
    map_id: str,
    used: set[str],
) -> ArgumentRecord | Rejected | LeftOut | tuple[str, str, tuple[str, ...]]:
    """The argument of one RA/CA/S node, or why it cannot be one (:class:`Rejected` for broken
    input, :class:`LeftOut` for structure argkb does not model), or for an undercut (a CA node
    pointing at another S-node) ``(node, target, premises)``, written once its target is; adds
    its I-nodes to ``used``."""
    assert node.type is not None  # only ok RA/CA/S nodes come here
    at = f"{where}#node {nid}"
    label = f"{node.type} node"
    if nid in links.broken:
        return Rejected(at, "edges", f"incomplete: {links.broken[nid]}; argument skipped")
    into = list(dict.fromkeys(links.into.get(nid, ())))
    out_of = list(dict.fromkeys(links.out_of.get(nid, ())))
    broken = _broken_neighbour(at, table, into, out_of)
    if broken is not None:
        return broken
    premises = [p for p in into if table[p].type == "I"]
    conclusions = [c for c in out_of if table[c].type == "I"]
    unmodelled = _unmodelled(nid, at, label, node, table, into, out_of)
    if unmodelled is not None:
        return unmodelled
    target = conclusions[0]
    conclusion = _unit(table[target])
    for p in premises:
        if _unit(table[p]).uid == conclusion.uid:  # left out here, so its I-nodes stay units
            same = "is" if p == target else f"has the same text as I-node {target}, which is"
            return LeftOut(
                at, "self-loop", f"premise I-node {p} {same} the conclusion (self-loop); left out"
            )

    used.update(premises)
    used.update(conclusions)
    return ArgumentRecord(
        aid=f"aif:{map_id}:{nid}",
        conclusion=conclusion,
        premises=tuple(_unit(table[p]) for p in premises),
        stance=_ARGUMENT_TYPES[node.type],
        source=f"aif:{map_id}",
        properties=_scheme(node, flavour),
        where=at,
        fields=tuple(f"I-node {n} text" for n in (target, *premises)),
    )


def _edges_to_inferences(
    nid: str, node: _Node, table: dict[str, _Node], links: _Links, at: str
) -> Iterator[LeftOut]:
    """One :class:`LeftOut` per edge from an argument with an I-node conclusion to another
    inference node: the argument loads, that edge is not modelled (it was dropped silently)."""
    for target in dict.fromkeys(links.out_of.get(nid, ())):
        if table[target].type in _ARGUMENT_TYPES:
            yield LeftOut(
                at,
                "edge to an inference",
                f"{node.type} node also points at {table[target].type} node {target}; "
                "the argument loads, that edge is left out",
            )


def _broken_neighbour(
    at: str, table: dict[str, _Node], into: list[str], out_of: list[str]
) -> Rejected | None:
    """Why an inference node cannot be read because of a rejected neighbour, if it cannot."""
    for side, ids in (("premises", into), ("conclusion", out_of)):
        for other in ids:
            neighbour = table[other]
            if neighbour.type is None:
                return Rejected(at, side, f"neighbour node {other} has no valid type (rejected)")
            if neighbour.type == "I" and not neighbour.ok:
                return Rejected(at, side, f"I-node {other} has no usable text (rejected)")
    return None


def _unmodelled(
    nid: str,
    at: str,
    label: str,
    node: _Node,
    table: dict[str, _Node],
    into: list[str],
    out_of: list[str],
) -> LeftOut | tuple[str, str, tuple[str, ...]] | None:
    """The structure of an inference node that is not one argument with I-node premises and one
    I-node conclusion: :class:`LeftOut` with the reason, or an undercut's ``(node, target,
    premises)``; None for an ordinary argument."""
    premises = [p for p in into if table[p].type == "I"]
    conclusions = [c for c in out_of if table[c].type == "I"]
    targets = [t for t in out_of if table[t].type in _ARGUMENT_TYPES]
    if not premises:
        others = sorted({str(table[p].type) for p in into})
        came = f" (only from {', '.join(others)} nodes)" if others else ""
        return LeftOut(
            at,
            "inference without an I-node premise",
            f"{label} has no incoming edge from an I-node{came}; left out",
        )
    if not conclusions and targets:
        if node.type != "CA":
            return LeftOut(
                at,
                "support of an inference",
                f"{label} points at {table[targets[0]].type} node {targets[0]}, not "
                "at an I-node; only attacks on inferences (CA) are modelled",
            )
        if len(targets) > 1:
            return LeftOut(
                at, "several conclusions", f"{label} attacks {len(targets)} inferences; left out"
            )
        return nid, targets[0], tuple(premises)
    if not conclusions:
        others = sorted({str(table[c].type) for c in out_of})
        went = f" (only to {', '.join(others)} nodes)" if others else ""
        return LeftOut(
            at,
            "inference without an I-node conclusion",
            f"{label} has no outgoing edge to an I-node{went}; left out",
        )
    if len(conclusions) > 1:
        return LeftOut(
            at,
            "several conclusions",
            f"{label} points at {len(conclusions)} I-nodes ({', '.join(conclusions)}); "
            "an argument has one conclusion; left out",
        )
    return None


def _undercuts(
    found: list[tuple[str, str, tuple[str, ...]]],
    table: dict[str, _Node],
    flavour: _Flavour,
    where: str,
    map_id: str,
    used: set[str],
    written: set[str],
) -> Iterator[UndercutRecord | LeftOut]:
    """The undercuts of one map, each after the argument it attacks (an undercut may attack an
    undercut); one whose target is not written (left out or rejected) is left out too."""
    waiting = list(found)
    while waiting:
        ready = [u for u in waiting if u[1] in written]
        if not ready:
            break
        for nid, target, premises in ready:
            written.add(nid)
            used.update(premises)
            yield UndercutRecord(
                aid=f"aif:{map_id}:{nid}",
                premises=tuple(_unit(table[p]) for p in premises),
                target=f"aif:{map_id}:{target}",
                source=f"aif:{map_id}",
                properties=_scheme(table[nid], flavour),
                where=f"{where}#node {nid}",
            )
        waiting = [u for u in waiting if u[0] not in written]
    for nid, target, _ in waiting:
        yield LeftOut(
            f"{where}#node {nid}",
            "undercut of an inference left out",
            f"CA node attacks {table[target].type} node {target}, which is not loaded; left out",
        )


def _unit(node: _Node) -> UnitRef:
    assert node.text is not None
    return UnitRef(node.text)


def _scheme(node: _Node, flavour: _Flavour) -> Properties:
    """``scheme`` (a name) and ``scheme_id``, from where each flavour keeps them."""
    if flavour is _AIFDB:
        name, scheme_id = node.raw.get("scheme"), node.raw.get("schemeID")
        if not isinstance(name, str) or not name.strip():
            name = node.text
    else:
        name, scheme_id = node.text, node.raw.get("scheme")
    props: list[tuple[str, Scalar]] = []
    if isinstance(name, str) and name.strip():
        props.append(("scheme", name.strip()))
    scheme_key = _node_id(scheme_id)
    if scheme_key is not None:
        props.append(("scheme_id", scheme_key))
    return tuple(props)


def _node_id(value: Any) -> str | None:
    """A node or edge id as a string; ints and non-empty strings qualify, nothing else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


def _missing(raw: dict[str, Any], key: str, expected: str) -> str:
    if key not in raw:
        return "missing"
    return f"expected {expected}, got {raw[key]!r:.60}"


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__
