"""AIF argument maps (AIFdb and OVA JSON), read map by map into argument, unit and source records.

Formats
-------
Both flavours are one JSON object per map with a list of ``nodes`` and a list of ``edges``.

*AIFdb* (the AIFdb/corpora.aifdb.org export; QT30 among them)::

    {"nodes": [{"nodeID": "511062", "text": "...", "type": "I", "timestamp": "..."},
               {"nodeID": "511070", "text": "Default Inference", "type": "RA",
                "scheme": "Default Inference", "schemeID": "72"}, ...],
     "edges": [{"edgeID": "666049", "fromID": "511062", "toID": "511070"}, ...],
     "locutions": [...]}

*OVA* (the Online Visualisation of Argument editor; the microtexts AIF corpus)::

    {"nodes": [{"id": 119927, "type": "I", "text": "...", "scheme": "0", "x": 610, ...},
               {"id": 119932, "type": "CA", "text": "Default Conflict", "scheme": "71", ...}],
     "edges": [{"from": {"id": 119927, ...the whole node...}, "to": {"id": 119932, ...}}, ...],
     "participants": [...], "analysis": {...}}

The flavour is decided per map from its keys: the first node with ``nodeID`` (AIFdb) or ``id``
(OVA); failing that the first edge with ``fromID``/``toID`` or ``from``/``to``; failing that a
top-level ``locutions`` (AIFdb) or ``analysis``/``participants`` (OVA). A map with no nodes and no
edges counts as AIFdb (there is nothing to read either way). Node ids may be strings or integers;
they are compared as strings, so an AIFdb export that mixes ``"12"`` and ``12`` still links up.
An OVA edge end may be the whole node object (as OVA writes it) or a bare id.

Mapping to records
------------------
Per map, in this order:

1. One :class:`SourceRecord` ``aif:<map_id>`` with properties ``format`` (``"aifdb"``/``"ova"``)
   and ``path`` (the location string below), plus ``invalid_utf8 = True`` when bytes had to be
   replaced (see *Encoding*). ``map_id`` is the file stem (``nodeset17919``), for a zip member the
   member's stem.
2. One :class:`ArgumentRecord` per RA node (stance ``pro``), per CA node (stance ``con``) and per
   generic S-node (type ``S``: a scheme application whose kind, inference or conflict, is not
   decided; stance ``unknown``, for ``argkb stance`` to predict), in node order:
   ``aid = aif:<map_id>:<node id>``, premises the I-nodes with an edge into the node (in edge
   order, each once), conclusion the I-node its edge points at, ``source = aif:<map_id>``,
   properties ``scheme`` (AIFdb: the node's ``scheme``, else its text, which AIFdb sets to the
   scheme name; OVA: the node's text, which OVA sets to the scheme name) and ``scheme_id`` (AIFdb
   ``schemeID``, OVA ``scheme``) where present. "Default Inference"/"Default Conflict" are kept as
   they are: they are what the annotators chose.
3. One :class:`UndercutRecord` per CA node that points at another RA/CA/S node instead of an
   I-node (an *undercut*: an attack on an inference), after the argument it attacks:
   ``aid = aif:<map_id>:<node id>``, its I-node premises, ``target`` the aid of the attacked
   argument, source and scheme as above. Stored as an argument with
   ``(:Argument)-[:UNDERCUTS]->(:Argument)`` (docs/data-model.md).
4. One :class:`UnitRecord` (no labels, ``source = aif:<map_id>``) per I-node that is in no
   argument yielded in steps 2-3, so every I-node of the corpus is a unit (I-nodes only linked
   by MA rephrase nodes or by left-out arguments included).

Dialogue and other nodes (L, YA, TA, MA, PA, anything not I/RA/CA/S) are not units and yield
nothing; edges from or to them are ignored (e.g. the YA anchoring an RA in its locution).
Every ``where`` is the map's location plus ``#node <id>`` or ``#edge <id>`` (``#node[<index>]``,
``#edge[<index>]`` where there is no usable id): ``nodeset17919.json#node 511062``,
``maps.zip:nodeset1.json#edge 7``. The location is the path as given (for a directory, the
directory joined with the file's relative path; for a zip, ``<zip path>:<member name>``).

Decisions
---------
- *Malformed input is* :class:`Rejected` (an error with ``--on-error fail``); *valid AIF whose
  structure argkb does not model is* :class:`LeftOut` (a warning with counts; the rest of the map
  loads): an RA/CA/S node with no incoming I-node premise (e.g. only a locution, L, feeds it:
  QT30 has 35) or no outgoing I-node conclusion (QT30: 23, e.g. a CA pointing at a locution),
  an RA or S node pointing at another inference (support of an inference; only attacks, CA,
  are modelled), an undercut whose target was itself left out or rejected. Their I-nodes stay
  units.
- *Self-loops*: an RA/CA whose premise is its conclusion (the same I-node, or one with the same
  unit identity) is left out here rather than rejected by the ingest, so that its I-nodes stay
  units. (Three QT30 maps have one: an I-node both into and out of the same RA.)
- *More than one conclusion*: an RA/CA with several outgoing I-nodes (or a CA attacking several
  inferences) is left out, not split. In AIF an S-node applies one scheme to one conclusion, so
  several are an annotation slip; splitting would invent aids the map does not have. (None of
  the 1,400 QT30 maps has one.)
- *Bad nodes and edges* are :class:`Rejected` naming map, node/edge and field: a node that is not
  an object, without a usable id (str or int), a duplicate id (the first node keeps it), without a
  string ``type`` or with a type AIF does not define (``ra`` is read as ``RA``: types are
  upper-cased), without a string ``text`` (every node type: AIF requires it), an I-node whose
  text is empty; an edge that is not an object, without a usable endpoint id, or naming an unknown
  node. An argument next to such a problem is rejected too (with its own entry saying why), rather
  than yielded with a premise missing: a partial argument would be silently wrong.
- *Malformed JSON*, JSON nested deeper than Python's parser reads (``nested too deeply: JSON
  200,001 levels deep, ...``), a top level that is not an object, ``nodes``/``edges`` missing or
  not lists, or a flavour that cannot be recognised: one :class:`Rejected` for the map (field
  ``<json>``, ``nodes``, ``edges`` or ``<format>``); the next map is read. A read error of one
  file or zip member (field ``<file>``) likewise.
- *Duplicate map ids*: two maps with the same stem (e.g. the same name in two folders) would give
  colliding aids, so the second one is rejected (field ``<map>``).
- *Encoding*: maps are UTF-8 (RFC 8259; a BOM is accepted). Invalid bytes are decoded as U+FFFD
  and the map is loaded with ``invalid_utf8 = True`` on its source: losing a whole map for one bad
  byte (typically in a locution) is worse than one odd character, and the flag makes it findable.
  A map that starts with a UTF-16/32 byte order mark is one :class:`Rejected` (field
  ``<encoding>``, ``file is UTF-16-LE; convert it to UTF-8``), as in the other loaders.
- *Inputs*: each path is a map file (read as JSON whatever its suffix), a directory (every
  ``*.json`` below it, recursively, sorted by path) or a ``.zip`` (members ``*.json``, sorted by
  name; ``__MACOSX/`` ignored). A path that does not exist, a ``.zip`` that is not a readable zip,
  and a directory (empty or not) or zip without any ``*.json`` raise
  :class:`~argkb.errors.LoadError` when :func:`read` is *called* (before any record): they are
  usage errors. A single path (not in a list) is accepted as well.
- *Zip limits* (:class:`ZipLimits`, ``argkb load --max-unzipped/--max-zip-ratio``): a member
  that decompresses past 256 MiB, or past 100 times its compressed size (once over 1 MiB), or
  members past 4 GiB in all, raise :class:`~argkb.errors.LoadError` naming archive and member:
  at call time from the sizes the archive declares, while reading from the bytes really
  decompressed (a forged header does not get past).
- *Streaming*: one map is parsed at a time (maps are small: the largest QT30 map is 384 kB);
  only the file list and the set of map ids seen are kept across maps.
- *No* ``arguebuf``: it reads both flavours, but pulls in grpcio, protobuf, lxml, networkx,
  pendulum and graphviz (about 80 MB), reports a dangling edge only as a warning and drops it,
  fails on a missing field with a bare ``KeyError``, and maps scheme names onto its own enum; the
  records here need per-node ``Rejected`` entries and the scheme as written, and the parsing
  itself is about 250 lines of :mod:`json` and :mod:`zipfile`.
"""

from __future__ import annotations

import os
import zipfile
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Literal

from argkb.errors import LoadError
from argkb.loaders.aif_map import read_map
from argkb.loaders.records import (
    LeftOut,
    Record,
    Rejected,
)

FORMAT = "aif"

_MACOS_JUNK = "__MACOSX/"
# what zipfile raises for a damaged archive: a bad or truncated directory (BadZipFile, EOFError,
# ValueError, UnicodeDecodeError for a name flagged UTF-8 that is not), an unsupported version
# or method (NotImplementedError), an encrypted member (RuntimeError), bad deflate data
# (zlib.error), a CRC mismatch (BadZipFile), a read error (OSError)
_ZIP_ERRORS = (
    zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError, RuntimeError,
    zlib.error,
)  # fmt: skip
_MIB = 2**20


@dataclass(frozen=True, slots=True)
class ZipLimits:
    """Caps on what reading a zip may decompress, so a small archive cannot fill memory (a zip
    bomb). ``member``: bytes of one member; ``total``: bytes of all members of one archive;
    ``ratio``: decompressed / compressed size of a member, checked once a member passes
    ``ratio_floor`` bytes (small files of repeated text compress well and are harmless). The
    largest QT30 map is 384 kB and compresses about 10:1."""

    member: int = 256 * _MIB
    total: int = 4096 * _MIB
    ratio: float = 100.0
    ratio_floor: int = 1 * _MIB


DEFAULT_ZIP_LIMITS = ZipLimits()
MAX_UNZIPPED_MIB = DEFAULT_ZIP_LIMITS.member // _MIB
"""``argkb load --max-unzipped``'s default: :data:`DEFAULT_ZIP_LIMITS`' member cap in MiB."""


@dataclass(frozen=True, slots=True)
class _Input:
    """One path to read: a single map, a directory's maps or a zip's members (already listed)."""

    path: Path
    kind: Literal["file", "dir", "zip"]
    members: tuple[str, ...]


def read(
    paths: Sequence[str | os.PathLike[str]] | str | os.PathLike[str],
    *,
    zip_limits: ZipLimits = DEFAULT_ZIP_LIMITS,
) -> Iterator[Record | Rejected | LeftOut]:
    """Records of AIF maps: map files, directories of maps (recursive) or zips of maps.

    Parameters
    ----------
    paths
        Map files (``.json``), directories (every ``*.json`` below, sorted) or ``.zip`` archives
        (members ``*.json``, sorted); a single path is accepted too.
    zip_limits
        Caps on decompressed sizes and compression ratios of zip members (:class:`ZipLimits`).

    Returns
    -------
    Iterator[Record | Rejected | LeftOut]
        Per map: its :class:`SourceRecord`, then any :class:`Rejected` nodes and edges, its
        :class:`ArgumentRecord` s (and rejected or :class:`LeftOut` RA/CA nodes) in node order,
        its :class:`UndercutRecord` s, then a :class:`UnitRecord` per I-node in no argument.
        Maps are read lazily, one at a time.

    Raises
    ------
    LoadError
        At call time, for a path that does not exist, a ``.zip`` that cannot be opened as a zip,
        a directory or zip with no ``*.json`` in it, or a zip member whose declared size or
        compression ratio passes ``zip_limits``; while reading, for a member that decompresses
        past them although its header said otherwise.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    inputs = [_plan(Path(p), zip_limits) for p in paths]
    return _stream(inputs, zip_limits)


def _check_zip_member(where: str, size: int, compressed: int, limits: ZipLimits) -> None:
    """Raise :class:`LoadError` when a member of ``size`` bytes (``compressed`` in the archive)
    passes ``limits``."""
    if size > limits.member:
        raise LoadError(
            where, "<zip>", f"member decompresses to more than {limits.member / _MIB:,.0f} MiB "
            "(limit; a zip bomb?); unpack it yourself if it is genuine"
        )  # fmt: skip
    if size > limits.ratio_floor and size > limits.ratio * max(compressed, 1):
        raise LoadError(
            where, "<zip>", f"member compressed more than {limits.ratio:.0f}:1 ({size:,} bytes "
            f"from {compressed:,}; limit; a zip bomb?); unpack it yourself if it is genuine"
        )  # fmt: skip


def _plan(path: Path, limits: ZipLimits = DEFAULT_ZIP_LIMITS) -> _Input:
    """Check one input path and list its maps; a usage error raises :class:`LoadError`."""
    where = str(path)
    if not path.exists():
        raise LoadError(where, "<path>", "no such file or directory")
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.suffix.lower() == ".json" and p.is_file())
        if not files:
            if not any(path.iterdir()):
                raise LoadError(where, "<path>", "empty directory: no map in it")
            raise LoadError(where, "<path>", "no *.json map in this directory or below it")
        return _Input(path, "dir", tuple(str(p) for p in files))
    if path.suffix.lower() == ".zip":
        try:
            with zipfile.ZipFile(path) as archive:
                infos = [
                    info
                    for info in archive.infolist()
                    if info.filename.lower().endswith(".json")  # so not empty, for is_dir()
                    and not info.is_dir()
                    and not info.filename.startswith(_MACOS_JUNK)
                ]
        except _ZIP_ERRORS as err:
            raise LoadError(where, "<zip>", f"not a readable zip archive: {err}") from err
        if not infos:
            raise LoadError(where, "<zip>", "no *.json member in this zip archive")
        total = 0
        for info in infos:  # the sizes the archive declares; reading checks the real ones
            _check_zip_member(f"{where}:{info.filename}", info.file_size, info.compress_size,
                              limits)  # fmt: skip
            total += info.file_size
        if total > limits.total:
            raise LoadError(
                where, "<zip>", f"members decompress to more than {limits.total / _MIB:,.0f} MiB "
                "in all (limit); unpack the archive yourself if it is genuine"
            )  # fmt: skip
        return _Input(path, "zip", tuple(sorted(info.filename for info in infos)))
    return _Input(path, "file", (where,))


def _stream(inputs: list[_Input], limits: ZipLimits) -> Iterator[Record | Rejected | LeftOut]:
    seen: dict[str, str] = {}  # map id -> where it was read, so colliding aids are caught
    for item in inputs:
        if item.kind == "zip":
            yield from _read_zip(item, seen, limits)
            continue
        for name in item.members:
            try:
                data = Path(name).read_bytes()
            except OSError as err:
                yield Rejected(name, "<file>", f"cannot read: {err}")
                continue
            yield from read_map(data, name, Path(name).stem, seen)


def _read_zip(
    item: _Input, seen: dict[str, str], limits: ZipLimits
) -> Iterator[Record | Rejected | LeftOut]:
    try:
        archive = zipfile.ZipFile(item.path)
    except _ZIP_ERRORS as err:  # it opened a moment ago in _plan
        raise LoadError(str(item.path), "<zip>", f"not a readable zip archive: {err}") from err
    total = 0
    with archive:
        for member in item.members:
            where = f"{item.path}:{member}"
            try:
                data = _read_member(archive, member, where, limits)
            except _ZIP_ERRORS as err:  # CRC mismatch, truncated member, bad deflate data...
                yield Rejected(where, "<file>", f"cannot read zip member: {err}")
                continue
            total += len(data)
            if total > limits.total:
                raise LoadError(
                    str(item.path), "<zip>", f"members decompress to more than "
                    f"{limits.total / _MIB:,.0f} MiB in all (limit)"
                )  # fmt: skip
            yield from read_map(data, where, PurePosixPath(member).stem, seen)


def _read_member(archive: zipfile.ZipFile, member: str, where: str, limits: ZipLimits) -> bytes:
    """A member's bytes, decompressed in chunks and stopped at ``limits`` whatever its header
    declares (a forged header must not let it fill memory)."""
    compressed = archive.getinfo(member).compress_size
    chunks, size = [], 0
    with archive.open(member) as handle:
        while chunk := handle.read(_MIB):
            size += len(chunk)
            _check_zip_member(where, size, compressed, limits)
            chunks.append(chunk)
    return b"".join(chunks)
