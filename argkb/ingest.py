"""Write loader records to Neo4j: validated, batched, idempotent, resumable.

Records from a loader (:mod:`argkb.loaders`) are checked (:func:`validate`), grouped by kind and
written with one ``UNWIND $rows ... MERGE`` query per batch (``cypher/ingest/*.cypher``), each batch
in one managed write transaction: a batch is written whole or not at all. Every ``MERGE`` is keyed
by a uniqueness constraint, so writing a batch twice changes nothing; that makes a load that was
killed half-way safe to run again, and a repeated load of the same files a no-op (the
``(:Corpus {cid})`` node, keyed by the files' content hash, says it is complete).

After the records, exact reuse is materialised as ``(:Argument)-[:REUSES]->(:Argument)`` and the
corpus node gets its counts.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from argkb.db import cypher
from argkb.errors import LoadError
from argkb.loaders.records import (
    ArgumentRecord,
    LinkRecord,
    Record,
    Rejected,
    UnitRecord,
    UnitRef,
)

if TYPE_CHECKING:
    import neo4j

OnError = Literal["fail", "skip"]
DEFAULT_BATCH = 1000
DEFAULT_MAX_TEXT = 100_000  # characters; a longer "unit" is a parsing accident, not a proposition
_KINDS = ("sources", "units", "arguments", "links")


@dataclass
class LoadSummary:
    """What a load did; ``already_loaded`` when the same content was loaded completely before."""

    corpus: str
    format: str
    files: list[str]
    already_loaded: bool = False
    records: int = 0
    arguments: int = 0
    units: int = 0
    sources: int = 0
    reuse_edges: int = 0
    links: int = 0
    rejected: int = 0
    rejected_examples: list[str] = field(default_factory=list)
    reject_report: str | None = None
    nodes_created: int = 0
    relationships_created: int = 0
    seconds: dict[str, float] = field(default_factory=dict)


# -- validation --------------------------------------------------------------------------------


def _check_unit(unit: UnitRef, where: str, name: str, max_text: int) -> Rejected | None:
    if unit.key is None and not unit.text.strip():
        return Rejected(where, name, "empty text")
    if len(unit.text) > max_text:
        return Rejected(where, name, f"text of {len(unit.text):,} characters (limit {max_text:,})")
    return None


def validate(record: Record, max_text: int) -> Rejected | None:
    """The checks every format shares: empty or enormous texts, unknown stance, self-loops.

    Duplicate argument ids are checked per batch against Neo4j (:class:`_BatchWriter`), so the
    check costs no memory that grows with the corpus.
    """
    if isinstance(record, ArgumentRecord):
        where = record.where or record.aid
        problem = _check_unit(record.conclusion, where, "conclusion", max_text)
        for position, premise in enumerate(record.premises):
            problem = problem or _check_unit(premise, where, f"premises[{position}]", max_text)
        if problem:
            return problem
        if not record.premises:
            return Rejected(where, "premises", "an argument needs at least one premise")
        if record.stance not in ("pro", "con"):
            return Rejected(where, "stance", f"unknown stance {record.stance!r}")
        if record.conclusion.uid in {p.uid for p in record.premises}:
            return Rejected(where, "premises", "a premise equals the conclusion (self-loop)")
    elif isinstance(record, UnitRecord):
        return _check_unit(record.unit, record.where, "text", max_text)
    elif isinstance(record, LinkRecord):
        return _check_unit(record.start, record.where, "start", max_text) or _check_unit(
            record.end, record.where, "end", max_text
        )
    return None


# -- rows for the Cypher batches ---------------------------------------------------------------


def _unit_row(unit: UnitRef) -> dict[str, str]:
    return {"uid": unit.uid, "text": unit.text}


def _row(record: Record) -> tuple[str, dict[str, Any]]:
    if isinstance(record, ArgumentRecord):
        return "arguments", {
            "where": record.where or record.aid,
            "aid": record.aid,
            "stance": record.stance,
            "props": dict(record.properties),
            "source": record.source,
            "conclusion": _unit_row(record.conclusion),
            "premises": [_unit_row(p) for p in dict.fromkeys(record.premises)],
        }
    if isinstance(record, UnitRecord):
        return "units", {
            **_unit_row(record.unit),
            "labels": list(record.labels),
            "props": dict(record.properties),
            "source": record.source,
        }
    if isinstance(record, LinkRecord):
        return "links", {
            "start": _unit_row(record.start),
            "end": _unit_row(record.end),
            "type": record.type,
            "props": dict(record.properties),
        }
    return "sources", {"sid": record.sid, "props": dict(record.properties)}


class _BatchWriter:
    """Buffers rows per kind and writes each full buffer in one managed transaction."""

    def __init__(
        self, driver: neo4j.Driver, database: str | None, cid: str, batch_size: int,
        *, strict: bool = True,
    ) -> None:  # fmt: skip
        import uuid

        self.driver, self.database, self.cid, self.batch_size = driver, database, cid, batch_size
        self.strict = strict  # a duplicate id fails the batch before anything of it is written
        # marks the arguments written by this run, so a repeated id is told from a resumed load
        self.token = uuid.uuid4().hex
        self.buffers: dict[str, list[dict[str, Any]]] = {kind: [] for kind in _KINDS}
        self.nodes_created = 0
        self.relationships_created = 0

    def add(self, kind: str, row: dict[str, Any]) -> list[Rejected]:
        """Buffer a row; a full buffer is written. Returns rows refused as duplicate ids."""
        buffer = self.buffers[kind]
        buffer.append(row)
        if len(buffer) >= self.batch_size:
            return self.flush(kind)
        return []

    def _duplicates(
        self, rows: list[dict[str, Any]]
    ) -> tuple[list[dict[str, Any]], list[Rejected]]:
        """Split off arguments whose id came earlier in this load (this batch or a written one)."""
        from neo4j import RoutingControl

        records, _, _ = self.driver.execute_query(
            cypher.load("ingest/arg_seen"), {"aids": [r["aid"] for r in rows], "token": self.token},
            database_=self.database, routing_=RoutingControl.READ,
        )  # fmt: skip
        seen = {record["aid"] for record in records}
        kept, duplicates = [], []
        for row in rows:
            if row["aid"] in seen:
                reason = f"duplicate argument id {row['aid']!r} in this load"
                duplicates.append(Rejected(row["where"], "id", reason))
            else:
                seen.add(row["aid"])
                kept.append(row)
        return kept, duplicates

    def flush(self, kind: str) -> list[Rejected]:
        rows = self.buffers[kind]
        self.buffers[kind] = []
        duplicates: list[Rejected] = []
        if kind == "arguments" and rows:
            rows, duplicates = self._duplicates(rows)
            if duplicates and self.strict:
                first = duplicates[0]
                raise LoadError(first.where, first.field, first.reason)
        if not rows:
            return duplicates
        if kind == "arguments":
            statements = _argument_statements(rows)
        else:
            statements = [(f"ingest/{kind}", {"rows": rows})]
        with self.driver.session(database=self.database) as session:
            created = session.execute_write(_run_all, statements, self.cid, self.token)
        self.nodes_created += created[0]
        self.relationships_created += created[1]
        return duplicates

    def flush_all(self) -> list[Rejected]:
        return [problem for kind in _KINDS for problem in self.flush(kind)]


def _argument_statements(rows: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """An argument batch as five simple statements (one transaction): units once, role labels,
    argument nodes, edges, sources. Simple statements keep Neo4j's planner free of Eager
    barriers that one combined query needs."""
    units: dict[str, str] = {}
    for row in rows:
        for unit in (row["conclusion"], *row["premises"]):
            if unit["uid"] not in units or not units[unit["uid"]]:
                units[unit["uid"]] = unit["text"]
    claims = sorted({row["conclusion"]["uid"] for row in rows})
    premises = sorted({p["uid"] for row in rows for p in row["premises"]})
    return [
        ("ingest/arg_units", {"rows": [{"uid": u, "text": t} for u, t in units.items()]}),
        ("ingest/arg_labels", {"claims": claims, "premises": premises}),
        ("ingest/arg_nodes", {"rows": [
            {"aid": r["aid"], "stance": r["stance"], "props": r["props"]} for r in rows]}),
        ("ingest/arg_edges", {"rows": [
            {"aid": r["aid"], "stance": r["stance"], "conclusion": r["conclusion"]["uid"],
             "premises": [p["uid"] for p in r["premises"]]} for r in rows]}),
        ("ingest/arg_sources", {"rows": [
            {"aid": r["aid"], "source": r["source"]} for r in rows if r["source"]]}),
    ]  # fmt: skip


def _run_all(
    tx: neo4j.ManagedTransaction,
    statements: list[tuple[str, dict[str, Any]]],
    cid: str,
    token: str,
) -> tuple[int, int]:
    """Run the statements of one batch in one transaction; (nodes, relationships) created."""
    nodes = relationships = 0
    for name, params in statements:
        counters = (
            tx.run(cypher.load(name), {**params, "cid": cid, "token": token}).consume().counters
        )
        nodes += counters.nodes_created
        relationships += counters.relationships_created
    return nodes, relationships


# -- corpus identity ---------------------------------------------------------------------------


def _files(paths: Sequence[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file())
        elif path.exists():
            yield path
        else:
            raise LoadError(str(path), "<file>", "no such file or directory")


def content_hash(paths: Sequence[Path]) -> str:
    """BLAKE2b over every input file's name and bytes, in a fixed order (directories walked)."""
    digest = hashlib.blake2b(digest_size=16)
    for path in _files(paths):
        digest.update(path.name.encode() + b"\0")
        with path.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    return digest.hexdigest()


# -- the load ----------------------------------------------------------------------------------


def load_records(
    driver: neo4j.Driver,
    fmt: str,
    paths: Sequence[str | os.PathLike[str]],
    records: Iterable[Record | Rejected],
    *,
    database: str | None = None,
    on_error: OnError = "fail",
    batch_size: int = DEFAULT_BATCH,
    max_text: int = DEFAULT_MAX_TEXT,
    reject_report: Path | None = None,
    force: bool = False,
    progress: Callable[[int], None] | None = None,
) -> LoadSummary:
    """Write ``records`` (from ``fmt``'s loader over ``paths``) as one corpus; see module doc.

    ``on_error="fail"`` raises :class:`LoadError` at the first rejected record (batches written
    before it stay; running the load again after the fix completes it). ``"skip"`` writes every
    rejected record to ``reject_report`` (JSONL) and loads the rest.
    """
    from neo4j import RoutingControl

    files = [Path(p) for p in paths]
    started = time.perf_counter()
    cid = f"{fmt}:{content_hash(files)[:24]}"
    summary = LoadSummary(cid, fmt, [str(p) for p in files])
    summary.seconds["hash"] = time.perf_counter() - started
    existing, _, _ = driver.execute_query(
        cypher.load("ingest/corpus_get"),
        {"cid": cid},
        database_=database,
        routing_=RoutingControl.READ,
    )
    if existing and existing[0]["corpus"].get("status") == "complete" and not force:
        stored = existing[0]["corpus"]
        for key in ("arguments", "units", "sources", "reuse_edges", "links", "rejected"):
            setattr(summary, key, int(stored.get(key, 0)))
        summary.already_loaded = True
        return summary
    driver.execute_query(
        cypher.load("ingest/corpus_begin"),
        {
            "cid": cid,
            "format": fmt,
            "name": ", ".join(p.name for p in files),
            "files": [str(p) for p in files],
            "hash": cid.split(":", 1)[1],
        },
        database_=database,
    )

    writer = _BatchWriter(driver, database, cid, batch_size, strict=on_error == "fail")
    report: list[Any] = [None]  # the open reject report, created on the first rejection

    def reject(problem: Rejected) -> None:
        if on_error == "fail":
            raise LoadError(problem.where, problem.field, problem.reason)
        summary.rejected += 1
        if len(summary.rejected_examples) < 5:
            summary.rejected_examples.append(str(problem))
        if report[0] is None:
            target = reject_report or Path(f"argkb-rejected-{cid.replace(':', '-')}.jsonl")
            report[0] = target.open("w", encoding="utf-8")
            summary.reject_report = str(target)
        entry = {"where": problem.where, "field": problem.field, "reason": problem.reason}
        report[0].write(json.dumps(entry) + "\n")

    phase = time.perf_counter()
    try:
        for item in records:
            problem = item if isinstance(item, Rejected) else validate(item, max_text)
            if problem is not None:
                reject(problem)
                continue
            assert not isinstance(item, Rejected)
            kind, row = _row(item)
            summary.records += 1
            for duplicate in writer.add(kind, row):
                summary.records -= 1
                reject(duplicate)
            summary.links += kind == "links"
            if progress is not None:
                progress(1)
        for duplicate in writer.flush_all():
            summary.records -= 1
            reject(duplicate)
    finally:
        if report[0] is not None:
            report[0].close()
    summary.seconds["write"] = time.perf_counter() - phase

    phase = time.perf_counter()
    with driver.session(database=database) as session:
        reuse = session.run(cypher.load("ingest/reuse")).consume()
    summary.relationships_created = (
        writer.relationships_created + reuse.counters.relationships_created
    )
    summary.nodes_created = writer.nodes_created
    summary.seconds["reuse"] = time.perf_counter() - phase

    phase = time.perf_counter()
    counts, _, _ = driver.execute_query(
        cypher.load("ingest/corpus_counts"),
        {"cid": cid},
        database_=database,
        routing_=RoutingControl.READ,
    )
    for key, value in counts[0].data().items():
        setattr(summary, key, int(value or 0))
    stored_counts = {
        key: getattr(summary, key)
        for key in ("arguments", "units", "sources", "reuse_edges", "links", "rejected")
    }
    driver.execute_query(
        cypher.load("ingest/corpus_end"), {"cid": cid, "counts": stored_counts}, database_=database
    )
    summary.seconds["count"] = time.perf_counter() - phase
    summary.seconds["total"] = time.perf_counter() - started
    return summary
