"""Evaluation files: topics, TREC qrels, ground-truth clusters and runs (read and write).

Every reader streams its file line by line and raises :class:`EvalFileError` naming the file, the
line and what is wrong; nothing here touches Neo4j. Files are UTF-8; a leading byte-order mark is
skipped. The in-memory types a run is made of, :class:`Query` and :class:`Ranking`, live in
:mod:`argkb.ranking` (files, rankers and the retrievers share them) and are re-exported here and
by the harness.

Formats (docs/eval/harness.md has examples)
-------------------------------------------
topics
    TSV ``qid<TAB>text[<TAB>stance]``, one query per line; an optional header line whose first
    cell is ``qid``/``id``/``topic``/``number`` is skipped. ``stance`` is ``pro``/``con`` (also
    ``1``/``+1``/``-1``), empty or ``-`` for none. Or JSON (``.json``: a list of objects, or
    ``{"topics": [...]}``; ``.jsonl``: one object per line) with keys ``qid`` (or ``id``),
    ``text`` (or ``query``) and optional ``stance``.
qrels
    TREC ``qid iter docid rel`` (whitespace-separated; ``iter`` is ignored). ``rel`` is a number;
    a grade <= 0 is not relevant and gains nothing.
clusters (ground truth)
    ``qid docid cluster_id``: the documents of one ``(qid, cluster_id)`` are one ground-truth
    cluster (one information nugget, Dumani et al., ECIR 2020, sec. 6.2). A document is in at most
    one cluster per query.
run
    TREC ``qid Q0 docid rank score tag`` with an optional 7th column ``cluster_id``. argkb orders
    a query's lines by ``rank`` (ties: higher ``score`` first, then file order), unlike trec_eval,
    which orders by ``score``; write both consistently. Lines of one query sharing a
    ``cluster_id`` form one returned cluster; its best-ranked line is its representative, and
    clusters are ordered by their representatives' ranks. A line without a 7th column is a
    cluster of its own. A run is *clustered* when any line has a 7th column.
    Or JSON (``.json``)::

        {"tag": "bm25",
         "queries": {"q1": {"clusters": [["d3", "d9"], ["d1"]], "scores": [2.5, 1.0]},
                     "q2": [["d4"], ["d2", "d8"]],
                     "q3": ["d5", "d6"]}}

    a query maps to ``{"clusters": [...], "scores": [...]}`` (scores optional, one finite number
    per cluster), to a list of clusters, or to a flat list of document ids (singleton clusters).
    ``tag`` is a string (default: the file name's stem). ``clustered`` may be given, ``true`` or
    ``false``; otherwise it is true when any cluster has more than one document.
"""

from __future__ import annotations

import json
import logging
import math
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias, TypeVar

from argkb.errors import EvalFileError
from argkb.ranking import Query, Ranking, Stance

__all__ = [
    "Clusters",
    "EvalFileError",
    "Qrels",
    "Query",
    "Ranking",
    "Run",
    "parse_stance",
    "read_clusters",
    "read_qrels",
    "read_run",
    "read_topics",
    "write_clusters",
    "write_qrels",
    "write_run",
    "write_topics",
]

Qrels: TypeAlias = dict[str, dict[str, float]]
"""qid -> docid -> relevance grade."""
Clusters: TypeAlias = dict[str, dict[str, str]]
"""qid -> docid -> ground-truth cluster id."""

_STANCES: dict[str, Stance | None] = {
    "pro": "pro",
    "1": "pro",
    "+1": "pro",
    "con": "con",
    "-1": "con",
    "": None,
    "-": None,
    "none": None,
}
_V = TypeVar("_V")
_TOPIC_HEADERS = {"qid", "id", "topic", "topic_id", "number"}


@dataclass
class Run:
    """A run: one :class:`Ranking` per query id, a tag, and whether it returns clusters."""

    tag: str
    rankings: dict[str, Ranking] = field(default_factory=dict)
    clustered: bool = False


def parse_stance(value: str | None) -> Stance | None:
    """``pro``/``con`` from the spellings topics files use; raises ValueError otherwise."""
    key = "" if value is None else str(value).strip().lower()
    if key not in _STANCES:
        raise ValueError(f"unknown stance {value!r} (expected pro, con, 1, -1 or empty)")
    return _STANCES[key]


# -- line reading ------------------------------------------------------------------------------


def _lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, str]]:
    """``(line number, stripped line)`` for every non-blank line that is not a ``#`` comment."""
    file = Path(path)
    if not file.is_file():
        raise EvalFileError(path, None, "no such file")
    try:
        # utf-8-sig: a byte-order mark (Excel, Windows editors) would otherwise be glued to the
        # first qid and silently drop or mis-score that query
        with file.open(encoding="utf-8-sig") as handle:
            for number, raw in enumerate(handle, start=1):
                line = raw.rstrip("\r\n")
                if line.strip() and not line.lstrip().startswith("#"):
                    yield number, line
    except UnicodeDecodeError as err:
        raise EvalFileError(path, None, f"not UTF-8: {err}") from err


def _columns(path: str | os.PathLike[str], layout: str) -> Iterator[tuple[int, list[str]]]:
    """``(line number, cells)`` of a whitespace-separated file whose lines are ``layout``."""
    expected = len(layout.split())
    for number, line in _lines(path):
        cells = line.split()
        if len(cells) != expected:
            raise EvalFileError(
                path, number, f"expected {expected} columns `{layout}`, got {len(cells)}"
            )
        yield number, cells


def _number(path: str | os.PathLike[str], line: int, name: str, value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise EvalFileError(path, line, f"{name} is not a number: {value!r}") from None
    if not math.isfinite(number):
        raise EvalFileError(path, line, f"{name} is not a finite number: {value!r}")
    return number


def _integer(path: str | os.PathLike[str], line: int, name: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise EvalFileError(path, line, f"{name} is not an integer: {value!r}") from None


# -- topics ------------------------------------------------------------------------------------


def read_topics(path: str | os.PathLike[str]) -> list[Query]:
    """Queries of a topics file (TSV, ``.json`` or ``.jsonl``; see the module docstring)."""
    suffix = Path(path).suffix.lower()
    if suffix in (".json", ".jsonl"):
        queries = list(_json_topics(path, jsonl=suffix == ".jsonl"))
    else:
        queries = list(_tsv_topics(path))
    if not queries:
        raise EvalFileError(path, None, "no topics")
    return queries


def _tsv_topics(path: str | os.PathLike[str]) -> Iterator[Query]:
    seen: dict[str, int] = {}
    first = True
    for number, line in _lines(path):
        cells = [cell.strip() for cell in line.split("\t")]
        if first and cells[0].lower() in _TOPIC_HEADERS and len(cells) > 1:
            first = False
            continue
        first = False
        if len(cells) not in (2, 3):
            raise EvalFileError(
                path,
                number,
                f"expected 2 or 3 tab-separated columns `qid text [stance]`, got {len(cells)}",
            )
        qid, text = cells[0], cells[1]
        if not qid or not text:
            raise EvalFileError(path, number, "empty qid or text")
        try:
            stance = parse_stance(cells[2] if len(cells) == 3 else None)
        except ValueError as err:
            raise EvalFileError(path, number, str(err)) from None
        if qid in seen:
            raise EvalFileError(path, number, f"duplicate qid {qid!r} (first at line {seen[qid]})")
        seen[qid] = number
        yield Query(qid, text, stance)


def _json_file(path: str | os.PathLike[str]) -> Any:
    """The JSON value of a whole file; a missing file or invalid JSON is an EvalFileError."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8-sig"))  # a BOM is not an error
    except FileNotFoundError:
        raise EvalFileError(path, None, "no such file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise EvalFileError(path, None, f"invalid JSON: {err}") from None


def _json_topics(path: str | os.PathLike[str], *, jsonl: bool) -> Iterator[Query]:
    entries: list[tuple[str, Any]] = []
    if jsonl:
        for number, line in _lines(path):
            try:
                entries.append((f"line {number}", json.loads(line)))
            except json.JSONDecodeError as err:
                raise EvalFileError(path, number, f"invalid JSON: {err.msg}") from None
    else:
        data = _json_file(path)
        if isinstance(data, dict) and isinstance(data.get("topics"), list):
            data = data["topics"]
        if not isinstance(data, list):
            raise EvalFileError(path, None, 'expected a list of topics or {"topics": [...]}')
        entries = [(f"entry {i}", item) for i, item in enumerate(data)]
    seen: set[str] = set()
    for where, item in entries:
        if not isinstance(item, dict):
            raise EvalFileError(path, where, "a topic must be an object")
        qid = item.get("qid", item.get("id"))
        text = item.get("text", item.get("query"))
        if qid is None or str(qid).strip() == "":
            raise EvalFileError(path, where, "missing 'qid' (or 'id')")
        if not isinstance(text, str) or not text.strip():
            raise EvalFileError(path, where, "missing 'text' (or 'query')")
        try:
            stance = parse_stance(item.get("stance"))
        except ValueError as err:
            raise EvalFileError(path, where, str(err)) from None
        qid = str(qid).strip()
        if qid in seen:
            raise EvalFileError(path, where, f"duplicate qid {qid!r}")
        seen.add(qid)
        yield Query(qid, text.strip(), stance)


def write_topics(path: str | os.PathLike[str], queries: Iterable[Query]) -> None:
    """Write queries as TSV ``qid<TAB>text<TAB>stance`` with a header line."""
    with Path(path).open("w", encoding="utf-8") as out:
        out.write("qid\ttext\tstance\n")
        for query in queries:
            text = " ".join(query.text.split())  # no tabs or newlines inside a cell
            out.write(f"{query.qid}\t{text}\t{query.stance or ''}\n")


# -- qrels and clusters ------------------------------------------------------------------------


def _per_query(
    path: str | os.PathLike[str],
    layout: str,
    value: Callable[[int, list[str]], _V],
    twice: str,
) -> dict[str, dict[str, _V]]:
    """``{qid: {docid: value(line number, cells)}}`` of a ``layout`` file with ``qid`` first.

    A (qid, docid) pair given twice raises :class:`EvalFileError` with ``twice``, formatted with
    ``docid``, ``qid`` and ``line`` (where the pair was first given); ``value`` is computed, and
    may fail, before that check.
    """
    docid_at = layout.split().index("docid")
    table: dict[str, dict[str, _V]] = {}
    seen: dict[tuple[str, str], int] = {}
    for number, cells in _columns(path, layout):
        qid, docid = cells[0], cells[docid_at]
        cell = value(number, cells)
        key = (qid, docid)
        if key in seen:
            raise EvalFileError(path, number, twice.format(docid=docid, qid=qid, line=seen[key]))
        seen[key] = number
        table.setdefault(qid, {})[docid] = cell
    return table


def _write_per_query(
    path: str | os.PathLike[str],
    table: Mapping[str, Mapping[str, _V]],
    line: Callable[[str, str, _V], str],
) -> None:
    """Write ``line(qid, docid, value)`` for every entry of ``{qid: {docid: value}}``, in order."""
    with Path(path).open("w", encoding="utf-8") as out:
        for qid, docs in table.items():
            for docid, value in docs.items():
                out.write(line(qid, docid, value))


def read_qrels(path: str | os.PathLike[str]) -> Qrels:
    """TREC qrels ``qid iter docid rel`` -> ``{qid: {docid: rel}}``."""
    return _per_query(
        path,
        "qid iter docid rel",
        lambda number, cells: _number(path, number, "rel", cells[3]),
        "document {docid!r} judged twice for {qid!r} (line {line})",
    )


def write_qrels(path: str | os.PathLike[str], qrels: Mapping[str, Mapping[str, float]]) -> None:
    """Write TREC qrels; integral grades are written as integers."""
    _write_per_query(path, qrels, lambda qid, docid, rel: f"{qid} 0 {docid} {_grade(rel)}\n")


def _grade(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def read_clusters(path: str | os.PathLike[str]) -> Clusters:
    """Ground-truth clusters ``qid docid cluster_id`` -> ``{qid: {docid: cluster_id}}``."""
    return _per_query(
        path,
        "qid docid cluster_id",
        lambda _, cells: cells[2],
        "document {docid!r} is in two clusters for {qid!r} (line {line}); "
        "a document belongs to at most one ground-truth cluster",
    )


def write_clusters(path: str | os.PathLike[str], clusters: Mapping[str, Mapping[str, str]]) -> None:
    """Write ground-truth clusters ``qid docid cluster_id``."""
    _write_per_query(path, clusters, lambda qid, docid, cluster: f"{qid} {docid} {cluster}\n")


# -- runs --------------------------------------------------------------------------------------


def read_run(path: str | os.PathLike[str]) -> Run:
    """A TREC run (6 or 7 columns) or a JSON run (``.json``); see the module docstring."""
    if Path(path).suffix.lower() == ".json":
        return _json_run(path)
    return _trec_run(path)


@dataclass
class _Line:
    order: int
    docid: str
    rank: int
    score: float
    cluster: str | None


def _trec_run(path: str | os.PathLike[str]) -> Run:
    by_query: dict[str, list[_Line]] = {}
    seen: dict[tuple[str, str], int] = {}
    tag: str | None = None
    tag_line = 0
    clustered = False
    for number, line in _lines(path):
        cells = line.split()
        if len(cells) not in (6, 7):
            raise EvalFileError(
                path,
                number,
                f"expected 6 or 7 columns `qid Q0 docid rank score tag [cluster_id]`, "
                f"got {len(cells)}",
            )
        qid, _, docid, rank, score, line_tag = cells[:6]
        if tag is None:
            tag, tag_line = line_tag, number
        elif line_tag != tag:
            raise EvalFileError(
                path,
                number,
                f"run tag {line_tag!r} differs from {tag!r} (line {tag_line}); "
                "one file holds one run",
            )
        key = (qid, docid)
        if key in seen:
            raise EvalFileError(
                path, number, f"document {docid!r} returned twice for {qid!r} (line {seen[key]})"
            )
        seen[key] = number
        cluster = cells[6] if len(cells) == 7 else None
        clustered = clustered or cluster is not None
        by_query.setdefault(qid, []).append(
            _Line(
                number,
                docid,
                _integer(path, number, "rank", rank),
                _number(path, number, "score", score),
                cluster,
            )
        )
    if tag is None:
        raise EvalFileError(path, None, "empty run")
    rankings: dict[str, Ranking] = {}
    for qid, lines in by_query.items():
        lines.sort(key=lambda item: (item.rank, -item.score, item.order))
        groups: dict[str, list[_Line]] = {}
        for item in lines:
            # a line without a cluster id is a cluster of its own (a key no cluster id can have)
            group = item.cluster if item.cluster is not None else f"\0{item.order}"
            groups.setdefault(group, []).append(item)
        ordered = list(groups.values())  # insertion order = order of the representatives
        rankings[qid] = Ranking(
            (tuple(item.docid for item in group) for group in ordered),
            (group[0].score for group in ordered),
        )
    return Run(tag, rankings, clustered)


def _json_run(path: str | os.PathLike[str]) -> Run:
    data = _json_file(path)
    if not isinstance(data, dict) or not isinstance(data.get("queries"), dict):
        raise EvalFileError(path, None, 'expected {"tag": ..., "queries": {qid: ranking}}')
    tag, clustered = data.get("tag"), data.get("clustered")
    if tag is not None and not isinstance(tag, str):
        raise EvalFileError(path, "tag", f"must be a string, got {tag!r}")
    if clustered is not None and not isinstance(clustered, bool):  # bool("no") would be true
        raise EvalFileError(path, "clustered", f"must be true or false, got {clustered!r}")
    rankings: dict[str, Ranking] = {}
    for qid, value in data["queries"].items():
        where = f"query {qid!r}"
        scores = None
        if isinstance(value, dict):
            clusters, scores = value.get("clusters"), value.get("scores")
            _check_scores(path, where, scores)
        else:
            clusters = value
        if not isinstance(clusters, list):
            raise EvalFileError(path, where, "expected a list of clusters or of document ids")
        members = [[item] if isinstance(item, str) else item for item in clusters]
        if not all(
            isinstance(m, list) and m and all(isinstance(d, str) for d in m) for m in members
        ):
            raise EvalFileError(path, where, "a cluster must be a non-empty list of document ids")
        try:
            ranking = Ranking(members, scores)
        except (TypeError, ValueError) as err:
            raise EvalFileError(path, where, str(err)) from None
        if len(set(ranking.documents)) != len(ranking.documents):
            raise EvalFileError(path, where, "a document is returned twice")
        rankings[str(qid)] = ranking
    if clustered is None:
        clustered = any(r.clustered for r in rankings.values())
    return Run(tag or Path(path).stem, rankings, clustered)


def _check_scores(path: str | os.PathLike[str], where: str, scores: Any) -> None:
    """Scores as the TREC reader takes them: numbers, finite (json reads NaN and 1e999)."""
    if not isinstance(scores, list):
        return  # absent, or not a list: Ranking says what is wrong
    for score in scores:
        if isinstance(score, bool) or not isinstance(score, int | float):
            raise EvalFileError(path, where, f"a score is not a number: {score!r}")
        if not math.isfinite(score):
            raise EvalFileError(path, where, f"a score is not a finite number: {score!r}")


def write_run(path: str | os.PathLike[str], run: Run) -> None:
    """Write a run as TREC (7th column when ``run.clustered``) or as JSON (``.json``).

    TREC scores are synthetic and strictly decreasing (``lines - rank + 1``) so trec_eval, which
    sorts by score, keeps argkb's order; the real cluster scores are kept by the JSON format.
    Repeated documents are dropped where they repeat (:meth:`Ranking.deduplicated`).
    """
    target = Path(path)
    if not run.tag or any(ch.isspace() for ch in run.tag):
        raise ValueError(f"a run tag must be one word, got {run.tag!r}")
    if target.suffix.lower() == ".json":
        payload: dict[str, Any] = {"tag": run.tag, "clustered": run.clustered, "queries": {}}
        for qid, ranking in run.rankings.items():
            clean = ranking.deduplicated()
            entry: dict[str, Any] = {"clusters": [list(c) for c in clean.clusters]}
            if clean.scores is not None and all(math.isfinite(x) for x in clean.scores):
                entry["scores"] = list(clean.scores)
            elif clean.scores is not None:  # JSON has no NaN: the order is kept, the scores not
                logging.getLogger(__name__).warning(
                    "run %s, query %s: a score is not a finite number; written without scores",
                    run.tag, qid,
                )  # fmt: skip
            payload["queries"][qid] = entry
        target.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
        return
    with target.open("w", encoding="utf-8") as out:
        for qid, ranking in run.rankings.items():
            clean = ranking.deduplicated()
            total = len(clean.documents)
            rank = 0
            for index, cluster in enumerate(clean.clusters, start=1):
                for docid in cluster:
                    rank += 1
                    line = f"{qid} Q0 {docid} {rank} {total - rank + 1} {run.tag}"
                    out.write(f"{line} c{index}\n" if run.clustered else f"{line}\n")
