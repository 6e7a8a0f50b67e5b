"""Webis-ArgRank-17 (Wachsmuth, Stein & Ajjour, EACL 2017): ground-truth graph and benchmark.

Files (the dataset directory; ``node_mapping.json``, an index for array code, is not needed):

``groundtruth.json``
    ``{"nodes": [unit id, ...], "edges": [[conclusion id, premise id], ...]}``: 28,800 unit ids
    and 19,222 distinct unit-level edges, derived from the Argument Web (AIFdb) by merging units
    with exactly the same text (sec. 5.1 of the paper). Parsed whole with :mod:`json` (480 KB).
``unit-source-list.csv``
    ``Argument Unit ID,Corpus Name,AIFdb Unit ID,AIFdb Map ID`` (the header has trailing spaces):
    31,080 units in 34,282 rows, one per AIFdb map a unit occurs in.
``ground-truth-list.csv``
    The benchmark: 110 arguments for 32 conclusions, each with ``Argument ID``, ``Aggregate
    rank``, ``Mean rank``, ``Rank annotator 1..7``, ``Conclusion argument unit ID``,
    ``Conclusion text``, ``Number of premises``, ``Corrected conclusion string``, ``Corrected
    premises text`` and ``Premise i argument unit ID`` / ``Premise i text`` for i = 1..4.

Unit identity: unit ids, not texts. Every unit is ``UnitRef(text, key="argrank:<id>")``; its text
is ``""`` (unknown) except for the units of the benchmark arguments, whose original AIFdb text
(HTML entities decoded) is used in *every* record that mentions them, so no record carries an
empty text for a unit whose text is known, whatever order the records are written in.

Arguments: the paper's argument is ``<c, P>``, one per AIFdb inference node, with a premise set
``P``; its PageRank divides a conclusion's score by ``|P_i|``. ``groundtruth.json`` keeps only the
unit-level edges, so the premise sets must be reconstructed. This loader makes **one argument per
edge** (``|P| = 1``), except that the 110 benchmark arguments, whose premise sets are known, are
yielded with them under their original ids and replace the edges they cover. Why:

- the paper reports 17,877 arguments; one per edge gives 19,222 (+7.5 %), grouping the edges of a
  conclusion within an AIFdb map gives 15,282 (-14.5 %), and grouping by conclusion 13,710;
- on the benchmark, whose arguments are known, one per edge reproduces 93 of 110 premise sets
  exactly, grouping by map only 47: AIFdb maps usually hold several single-premise (convergent)
  arguments for one conclusion, which map grouping merges into one; and 616 edges lie in
  more than one common map, so map grouping is not even well defined for them;
- with the benchmark override, all 110 benchmark arguments are exact graph arguments, so the
  PageRank of their premises can be aggregated per argument as in sec. 4.3.

Mapping:

- per benchmark argument -> :class:`ArgumentRecord` ``argrank:<Argument ID>`` (property
  ``construction="benchmark"``, ranks, the corrected premises text);
- per other edge ``[c, p]`` -> :class:`ArgumentRecord` ``argrank:edge:<c>-<p>``
  (``construction="edge"``);
- every argument's source is the lowest-numbered AIFdb map that holds its conclusion and all its
  premises, ``argrank:map:<map id>`` (a :class:`SourceRecord` with ``map_id`` and ``corpus``, the
  first time it is used); all common maps are listed in ``aifdb_map_ids``; an argument whose units
  share no map (8 edges, with unit ids missing from the source list) has no source;
- every unit (graph nodes, edge ends, units of the source list, benchmark units) -> a
  :class:`UnitRecord` with ``argrank_id``, its AIFdb provenance (``corpora``, ``aifdb_unit_ids``,
  ``aifdb_map_ids``, space-separated), ``isolated`` (in no argument; 2,286 units of the source
  list are in no edge, and the paper keeps such units "for completeness", so its ground relevance
  is 1/31,080) and, for benchmark conclusions, ``corrected_text``. ``include_isolated=False``
  leaves the isolated ones out.

Stance: the data does not say whether an inference supports or attacks (the paper's table 1 shows
con arguments), so every argument is ``pro`` with the property ``stance_known=False``.

Quirks of ``ground-truth-list.csv`` (UTF-8; 25 U+FFFD characters from an earlier re-encoding are
kept as they are): in 3 rows (lines 73, 94, 98) an unquoted ``Corrected premises text`` was split
at its commas (and at the ``;`` of ``&quot;``), which shifts the premise columns to the right (in
line 98 the id lands in a "text" column); in line 17 the id of premise 2 is repeated in the wrong
columns. The loader therefore reads the premise ids as the numeric fields from the ``Premise 1
argument unit ID`` column on (first occurrence of each), takes as a premise's text the first
non-numeric field after it, rejoins the stray pieces into ``Corrected premises text``, marks the
argument ``repaired``, and accepts it only if the number of ids equals ``Number of premises``.
Ranks may tie (two conclusions have tied aggregate ranks); they are kept as published.

Bad input: a benchmark or source-list row with a missing or non-numeric id or rank, a premise count
that does not match, a duplicate id, a source-list row with more or fewer fields than its header
(field ``<columns>``; benchmark rows may be uneven, above), or a graph node or edge that is not a
pair of distinct non-negative integer ids listed in ``nodes`` becomes a :class:`Rejected`
(``file:line N``, ``groundtruth.json:nodes[i]`` or ``groundtruth.json:edges[i]``); so does an id
of more than 64 bits, which Neo4j cannot store. A :class:`UnitRecord`'s ``where`` is the place
that first names the unit, e.g. ``groundtruth.json:nodes[3] (unit 4)``. A missing file or
column, an undecodable file or a graph without ``nodes`` and ``edges`` raises
:class:`~argkb.errors.LoadError`.

:func:`load_benchmark` gives the 110 benchmark arguments for evaluation without Neo4j.
"""

from __future__ import annotations

import html
import io
import json
import math
import os
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argkb.errors import LoadError

from . import common
from .common import TOO_LONG_NUMBER, csv_table, not_a_file, open_utf8, required_fields
from .records import (
    ArgumentRecord,
    Properties,
    Record,
    Rejected,
    SourceRecord,
    UnitRecord,
    UnitRef,
    unstorable,
)

FORMAT = "argrank"

GRAPH_FILE = "groundtruth.json"
BENCHMARK_FILE = "ground-truth-list.csv"
UNIT_SOURCES_FILE = "unit-source-list.csv"
IGNORED_FILES = ("node_mapping.json",)

ANNOTATORS = 7
BENCHMARK_COLUMNS = (
    "Argument ID",
    "Aggregate rank",
    "Mean rank",
    *(f"Rank annotator {i}" for i in range(1, ANNOTATORS + 1)),
    "Conclusion argument unit ID",
    "Conclusion text",
    "Number of premises",
    "Corrected conclusion string",
    "Corrected premises text",
    "Premise 1 argument unit ID",
)
UNIT_SOURCE_COLUMNS = ("Argument Unit ID", "Corpus Name", "AIFdb Unit ID", "AIFdb Map ID")

_PREMISE_ID_COLUMN = re.compile(r"^Premise (\d+) argument unit ID$")
_OPEN_ENTITY = re.compile(r"&(?:[A-Za-z]+|#\d+)$")


def unit_key(unit_id: int) -> str:
    """The key of a Webis-ArgRank-17 unit in the graph: ``argrank:<unit id>``."""
    return f"{FORMAT}:{unit_id}"


def map_source_id(map_id: int) -> str:
    """The source id of an AIFdb map: ``argrank:map:<map id>``."""
    return f"{FORMAT}:map:{map_id}"


@dataclass(frozen=True, slots=True)
class BenchmarkArgument:
    """One benchmark argument of ``ground-truth-list.csv`` with its expert ranks.

    Texts are the original AIFdb texts; the ``corrected_*`` texts are what the seven experts saw
    (grammar corrected, references resolved, premises merged). ``repaired`` is True when the
    row's premise columns were shifted by stray text fields and had to be realigned.
    """

    argument_id: int
    conclusion_id: int
    premise_ids: tuple[int, ...]
    conclusion_text: str
    premise_texts: tuple[str, ...]
    corrected_conclusion: str
    corrected_premises: str
    aggregate_rank: int
    mean_rank: float
    annotator_ranks: tuple[int, ...]
    repaired: bool = False
    where: str = ""

    @property
    def aid(self) -> str:
        """The id of this argument in the graph."""
        return f"{FORMAT}:{self.argument_id}"


@dataclass(frozen=True, slots=True)
class UnitSource:
    """One row of ``unit-source-list.csv``: a unit's occurrence in one AIFdb map."""

    corpus: str
    aifdb_unit_id: int
    map_id: int
    where: str = ""


def read(
    paths: Sequence[str | os.PathLike[str]], *, include_isolated: bool = True
) -> Iterator[Record | Rejected]:
    """Records of the Webis-ArgRank-17 directory (or of its three files, named as published)."""
    files = _find_files(paths)
    benchmark: list[BenchmarkArgument] = []
    if BENCHMARK_FILE in files:
        for item in _read_benchmark(files[BENCHMARK_FILE]):
            if isinstance(item, Rejected):
                yield item
            else:
                benchmark.append(item)
    unit_sources: dict[int, list[UnitSource]] = defaultdict(list)
    if UNIT_SOURCES_FILE in files:
        for entry in _read_unit_sources(files[UNIT_SOURCES_FILE]):
            if isinstance(entry, Rejected):
                yield entry
            else:
                unit_sources[entry[0]].append(entry[1])
    nodes: dict[int, str] = {}  # unit id -> where
    edges: list[tuple[int, int, str]] = []
    for element in _read_graph(files[GRAPH_FILE]):
        if isinstance(element, Rejected):
            yield element
        elif len(element) == 2:
            nodes[element[0]] = element[1]
        else:
            edges.append(element)

    graph = _Graph(benchmark, unit_sources, nodes)
    covered: set[tuple[int, int]] = set()
    for arg in benchmark:
        covered.update((arg.conclusion_id, p) for p in arg.premise_ids)
        properties: Properties = (
            ("construction", "benchmark"),
            ("argument_id", arg.argument_id),
            ("stance_known", False),
            ("aggregate_rank", arg.aggregate_rank),
            ("mean_rank", arg.mean_rank),
            ("corrected_premises", arg.corrected_premises),
        )
        yield from graph.argument(
            arg.aid, arg.conclusion_id, arg.premise_ids, properties, arg.where
        )
    for conclusion, premise, where in edges:
        if (conclusion, premise) not in covered:
            aid = f"{FORMAT}:edge:{conclusion}-{premise}"
            properties = (("construction", "edge"), ("stance_known", False))
            yield from graph.argument(aid, conclusion, (premise,), properties, where)

    for unit_id in sorted(nodes.keys() | graph.in_arguments | unit_sources.keys()):
        if include_isolated or unit_id in graph.in_arguments:
            yield graph.unit(unit_id)


class _Graph:
    """What the records of one read share: known texts, map membership, sources already seen."""

    def __init__(
        self,
        benchmark: Sequence[BenchmarkArgument],
        unit_sources: Mapping[int, list[UnitSource]],
        nodes: Mapping[int, str],
    ) -> None:
        self.texts: dict[int, str] = {}
        self.corrected: dict[int, str] = {}
        for arg in benchmark:
            self.texts.setdefault(arg.conclusion_id, arg.conclusion_text)
            self.corrected.setdefault(arg.conclusion_id, arg.corrected_conclusion)
            for premise_id, text in zip(arg.premise_ids, arg.premise_texts, strict=True):
                if text:
                    self.texts.setdefault(premise_id, text)
        self.unit_sources = unit_sources
        self.maps = {u: {s.map_id for s in rows} for u, rows in unit_sources.items()}
        self.map_corpus = {s.map_id: s.corpus for rows in unit_sources.values() for s in rows}
        self.used_maps: set[int] = set()
        self.in_arguments: set[int] = set()
        # where each unit is first named (an argument's row or edge, a graph node, a source
        # row), so that a problem the ingest finds in its UnitRecord names the file
        self.origin: dict[int, str] = {}
        self.nodes = nodes

    def ref(self, unit_id: int) -> UnitRef:
        return UnitRef(self.texts.get(unit_id, ""), key=unit_key(unit_id))

    def argument(
        self,
        aid: str,
        conclusion: int,
        premises: Sequence[int],
        properties: Properties,
        where: str,
    ) -> Iterator[Record]:
        """The argument, preceded by the SourceRecord of its map when that is new."""
        units = (conclusion, *premises)
        self.in_arguments.update(units)
        for unit_id in units:
            self.origin.setdefault(unit_id, where)
        common = set.intersection(*(self.maps.get(u, set()) for u in units))
        source = None
        if common:
            first = min(common)
            source = map_source_id(first)
            properties = (*properties, ("aifdb_map_ids", _joined(common)))
            if first not in self.used_maps:
                self.used_maps.add(first)
                map_properties = (("map_id", first), ("corpus", self.map_corpus[first]))
                yield SourceRecord(source, map_properties, where)
        yield ArgumentRecord(
            aid=aid,
            conclusion=self.ref(conclusion),
            premises=tuple(self.ref(p) for p in premises),
            stance="pro",
            source=source,
            properties=properties,
            where=where,
            fields=tuple(f"unit {unit_id} text" for unit_id in units),
        )

    def unit(self, unit_id: int) -> UnitRecord:
        rows = self.unit_sources.get(unit_id, [])
        properties: Properties = (("argrank_id", unit_id),)
        if rows:
            properties += (
                ("corpora", " ".join(sorted({s.corpus for s in rows}))),
                ("aifdb_unit_ids", _joined({s.aifdb_unit_id for s in rows})),
                ("aifdb_map_ids", _joined({s.map_id for s in rows})),
            )
        properties += (("isolated", unit_id not in self.in_arguments),)
        if unit_id in self.corrected:
            properties += (("corrected_text", self.corrected[unit_id]),)
        origin = self.origin.get(unit_id) or self.nodes.get(unit_id) or rows[0].where
        return UnitRecord(
            self.ref(unit_id), properties=properties, where=f"{origin} (unit {unit_id})"
        )


def load_benchmark(root: str | os.PathLike[str]) -> list[BenchmarkArgument]:
    """The benchmark arguments of ``ground-truth-list.csv`` (the directory or the file itself).

    Strict, since a benchmark with a silently dropped row would score differently: any row the
    loader cannot use raises :class:`~argkb.errors.LoadError`.
    """
    path = Path(root)
    if path.is_dir():
        path = path / BENCHMARK_FILE
    out = []
    for item in _read_benchmark(path):
        if isinstance(item, Rejected):
            raise LoadError(item.where, item.field, item.reason)
        out.append(item)
    return out


def check_folder(root: str | os.PathLike[str]) -> None:
    """Raise :class:`~argkb.errors.LoadError` unless ``root`` holds the dataset's three files."""
    _find_files([root])


def _find_files(paths: Sequence[str | os.PathLike[str]]) -> dict[str, Path]:
    """The dataset files by name: a directory must hold all three; files are taken as given."""
    known = (GRAPH_FILE, BENCHMARK_FILE, UNIT_SOURCES_FILE)
    found: dict[str, Path] = {}
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for name in known:
                if not (path / name).is_file():
                    raise LoadError(str(path / name), "<file>", not_a_file(path / name))
                found[name] = path / name
        elif path.is_file():
            if path.name in IGNORED_FILES:
                continue
            if path.name not in known:
                raise LoadError(str(path), "<file>", f"expected one of {', '.join(known)}")
            found[path.name] = path
        else:
            raise LoadError(str(path), "<file>", not_a_file(path, or_directory=True))
    if GRAPH_FILE not in found:
        raise LoadError(", ".join(str(p) for p in paths), "<file>", f"no {GRAPH_FILE} given")
    return found


def _read_graph(path: Path) -> Iterator[tuple[int, str] | tuple[int, int, str] | Rejected]:
    """``(node id, where)``, then ``(conclusion, premise, where)`` per edge, or Rejected per bad
    entry."""
    try:
        with open_utf8(path) as raw:
            graph = json.load(io.TextIOWrapper(raw, encoding="utf-8"))
    except UnicodeDecodeError as err:
        raise LoadError(str(path), "<encoding>", f"not UTF-8: {err}") from err
    except json.JSONDecodeError as err:  # a cut file ends here too ("Expecting ...")
        raise LoadError(str(path), "<json>", f"malformed JSON: {err}") from err
    except ValueError as err:  # json.loads refuses an integer of too many digits
        raise LoadError(str(path), "<json>", TOO_LONG_NUMBER) from err
    except RecursionError as err:
        raise LoadError(str(path), "<json>", "JSON nested too deeply") from err
    if not isinstance(graph, dict):
        raise LoadError(str(path), "<json>", "expected an object with 'nodes' and 'edges'")
    for name in ("nodes", "edges"):
        if not isinstance(graph.get(name), list):
            raise LoadError(str(path), name, "missing, or not a list")
    seen_nodes: set[int] = set()
    for index, value in enumerate(graph["nodes"]):
        unit_id = _as_id(value)
        where = f"{path}:nodes[{index}]"
        if unit_id is None:
            yield Rejected(
                where, "nodes", _beyond_64_bits(value) or f"not a unit id: {value!r:.60}"
            )
        elif unit_id in seen_nodes:
            yield Rejected(where, "nodes", f"duplicate unit id {unit_id}")
        else:
            seen_nodes.add(unit_id)
            yield unit_id, where
    seen_edges: dict[tuple[int, int], str] = {}
    for index, value in enumerate(graph["edges"]):
        where = f"{path}:edges[{index}]"
        pair = _as_pair(value)
        if pair is None:
            too_big = [_beyond_64_bits(end) for end in value] if _is_pair(value) else []
            reason = f"not a [conclusion id, premise id] pair: {value!r:.60}"
            yield Rejected(where, "edges", next(filter(None, too_big), reason))
        elif pair[0] == pair[1]:
            yield Rejected(where, "edges", f"unit {pair[0]} is its own premise")
        elif missing := [end for end in pair if end not in seen_nodes]:
            yield Rejected(where, "edges", f"unit {missing[0]} is not in 'nodes'")
        elif pair in seen_edges:
            yield Rejected(where, "edges", f"duplicate edge (first at {seen_edges[pair]})")
        else:
            seen_edges[pair] = where
            yield (pair[0], pair[1], where)


def _read_unit_sources(path: Path) -> Iterator[tuple[int, UnitSource] | Rejected]:
    id_columns = (UNIT_SOURCE_COLUMNS[0], UNIT_SOURCE_COLUMNS[2], UNIT_SOURCE_COLUMNS[3])
    for where, columns, row in csv_table(path, UNIT_SOURCE_COLUMNS):
        if isinstance(row, Rejected):
            yield row
            continue
        ids = _integers(where, columns, row, id_columns)
        name = UNIT_SOURCE_COLUMNS[1]  # Corpus Name: text, not empty, UTF-8
        corpus = required_fields(where, {name: _cell(row, columns, name)}, (name,))
        if isinstance(ids, Rejected):
            yield ids
        elif isinstance(corpus, Rejected):
            yield corpus
        else:
            unit_id, aifdb_unit_id, map_id = ids
            yield unit_id, UnitSource(corpus[0], aifdb_unit_id, map_id, where)


def _read_benchmark(path: Path) -> Iterator[BenchmarkArgument | Rejected]:
    first_seen: dict[int, str] = {}
    # ragged: stray fields of an unquoted text shift some rows (see the module docstring)
    for where, columns, row in csv_table(path, BENCHMARK_COLUMNS, ragged=True):
        item = row if isinstance(row, Rejected) else _benchmark_argument(where, columns, row)
        if isinstance(item, BenchmarkArgument):
            if item.argument_id in first_seen:
                first = first_seen[item.argument_id]
                item = Rejected(where, "Argument ID", f"duplicate id (first at {first})")
            else:
                first_seen[item.argument_id] = where
        yield item


def _benchmark_argument(
    where: str, columns: Mapping[str, int], row: Sequence[str]
) -> BenchmarkArgument | Rejected:
    names = (
        "Argument ID",
        "Conclusion argument unit ID",
        "Number of premises",
        "Aggregate rank",
        *(f"Rank annotator {i}" for i in range(1, ANNOTATORS + 1)),
    )
    numbers = _integers(where, columns, row, names)
    if isinstance(numbers, Rejected):
        return numbers
    integers = dict(zip(names, numbers, strict=True))
    try:
        mean_rank = float(_cell(row, columns, "Mean rank"))
    except ValueError:
        mean_rank = math.nan
    if not math.isfinite(mean_rank):
        return Rejected(where, "Mean rank", f"not a number: {_cell(row, columns, 'Mean rank')!r}")
    conclusion_text = _text(_cell(row, columns, "Conclusion text"))

    # Premise ids: the numeric fields from the first premise-id column on (see module docstring).
    first_column = columns["Premise 1 argument unit ID"]
    for i in range(first_column, len(row)):
        if too_big := _beyond_64_bits(row[i]):
            name = next((n for n, j in columns.items() if j == i), f"field {i + 1}")
            return Rejected(where, name, too_big)
    positions = [i for i in range(first_column, len(row)) if _as_id(row[i]) is not None]
    premise_ids: list[int] = []
    premise_texts: list[str] = []
    for i in positions:
        premise_id = _as_id(row[i])
        assert premise_id is not None
        following = row[i + 1].strip() if i + 1 < len(row) else ""
        is_text = bool(following) and _as_id(following) is None
        if premise_id not in premise_ids:
            premise_ids.append(premise_id)
            premise_texts.append(_text(following) if is_text else "")
        elif is_text and not premise_texts[premise_ids.index(premise_id)]:
            premise_texts[premise_ids.index(premise_id)] = _text(following)
    expected = integers["Number of premises"]
    if not premise_ids:
        return Rejected(where, "Premise 1 argument unit ID", "no numeric premise id in the row")
    if len(premise_ids) != expected:
        reason = f"says {expected}, but the row has {len(premise_ids)} numeric premise ids"
        return Rejected(where, "Number of premises", reason)
    nominal = sorted(
        (int(m.group(1)), i) for name, i in columns.items() if (m := _PREMISE_ID_COLUMN.match(name))
    )
    nominal_ids = [row[i].strip() if i < len(row) else "" for _, i in nominal[:expected]]
    repaired = nominal_ids != [str(p) for p in premise_ids] or len(positions) != expected
    stray = row[columns["Corrected premises text"] : positions[0]]
    if bad := common.not_utf8_field(
        where, ((n, row[i]) for n, i in columns.items() if i < len(row))
    ):
        return bad  # named by its column: the ingest says only "a lone surrogate"
    return BenchmarkArgument(
        argument_id=integers["Argument ID"],
        conclusion_id=integers["Conclusion argument unit ID"],
        premise_ids=tuple(premise_ids),
        conclusion_text=conclusion_text,
        premise_texts=tuple(premise_texts),
        corrected_conclusion=_text(_cell(row, columns, "Corrected conclusion string")),
        corrected_premises=_text(_rejoin(stray)),
        aggregate_rank=integers["Aggregate rank"],
        mean_rank=mean_rank,
        annotator_ranks=tuple(integers[f"Rank annotator {i}"] for i in range(1, ANNOTATORS + 1)),
        repaired=repaired,
        where=where,
    )


def _rejoin(pieces: Sequence[str]) -> str:
    """Undo the split of an unquoted field: ``;`` after an open HTML entity, else ``,``.

    The closing quote of the split field survives as a trailing ``""``; it is dropped.
    """
    out = pieces[0] if pieces else ""
    for piece in pieces[1:]:
        out += (";" if _OPEN_ENTITY.search(out) else ",") + piece
    if len(pieces) > 1 and out.endswith('""'):
        out = out[:-2]
    return out


def _text(value: str) -> str:
    return html.unescape(value).strip()


def _joined(values: set[int]) -> str:
    return " ".join(str(v) for v in sorted(values))


def _integers(
    where: str, columns: Mapping[str, int], row: Sequence[str], names: Sequence[str]
) -> list[int] | Rejected:
    """The non-negative integers in ``names``, or a Rejected for the first that is not one."""
    out = []
    for name in names:
        number = _as_id(_cell(row, columns, name))
        if number is None:
            value = _cell(row, columns, name)
            reason = _beyond_64_bits(value) or f"not a non-negative integer: {value!r:.60}"
            return Rejected(where, name, reason if value else "missing or empty")
        out.append(number)
    return out


def _as_id(value: Any) -> int | None:
    """A non-negative integer id of at most 64 bits (Neo4j's integers) from an int or a string
    of digits; None otherwise."""
    number = _as_integer(value)
    return number if number is not None and unstorable(number) is None else None


def _as_integer(value: Any) -> int | None:
    """A non-negative integer of any size from an int or a string of digits; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, str) and value.strip().isdecimal():
        try:
            return int(value.strip())
        except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
            return None
    return None


def _beyond_64_bits(value: Any) -> str | None:
    """Why an integer id ``value`` is no id when it is one of more than 64 bits; else None."""
    number = _as_integer(value)
    return None if number is None else unstorable(number)


def _is_pair(value: Any) -> bool:
    return isinstance(value, list | tuple) and len(value) == 2


def _as_pair(value: Any) -> tuple[int, int] | None:
    if not _is_pair(value):
        return None
    first, second = _as_id(value[0]), _as_id(value[1])
    return None if first is None or second is None else (first, second)


def _cell(row: Sequence[str], columns: Mapping[str, int], name: str) -> str:
    index = columns[name]
    return row[index].strip() if index < len(row) else ""
