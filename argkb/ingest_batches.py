"""Writing checked rows to Neo4j in batches for :func:`argkb.ingest.load_records`: one managed
transaction per batch, written by a background thread while the next records are read, with
duplicate argument ids and undercuts of missing arguments found inside the transaction."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from argkb.db import cypher
from argkb.errors import LoadError
from argkb.loaders.records import Rejected

if TYPE_CHECKING:
    import neo4j

# undercuts after arguments: the argument an undercut attacks is written before it
_KINDS = ("sources", "units", "arguments", "undercuts", "links")


class _BatchWriter:
    """Buffers rows per kind and writes each full buffer in one managed transaction.

    Batches are written by one background thread, in order, while the caller reads and checks
    the next records (client and server work overlap); at most one batch is in flight, so the
    client's memory stays bounded by two batches. :meth:`flush` hands a batch over and returns
    the rows that the batch handed over before it refused as duplicate ids (or raises its error).
    """

    def __init__(
        self, driver: neo4j.Driver, database: str | None, cid: str, batch_size: int,
        *, strict: bool = True,
    ) -> None:  # fmt: skip
        import uuid
        from concurrent.futures import ThreadPoolExecutor

        self.driver, self.database, self.cid, self.batch_size = driver, database, cid, batch_size
        self.strict = strict  # a duplicate id fails the batch before anything of it is written
        # marks the arguments written by this run, so a repeated id is told from a resumed load
        self.token = uuid.uuid4().hex
        self.buffers: dict[str, list[dict[str, Any]]] = {kind: [] for kind in _KINDS}
        self.nodes_created = 0
        self.relationships_created = 0
        # ids of arguments another corpus wrote, repeated here unchanged: left to it, not written
        self.shared_ids: set[str] = set()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="argkb-ingest")
        self._in_flight: Future[list[Rejected]] | None = None

    def add(self, kind: str, row: dict[str, Any]) -> list[Rejected]:
        """Buffer a row; a full buffer is handed to the writer thread. Returns rows refused as
        duplicate ids by the batch written before."""
        buffer = self.buffers[kind]
        buffer.append(row)
        if len(buffer) >= self.batch_size:
            # the arguments an undercut attacks are written first
            done = self.flush("arguments") if kind == "undercuts" else []
            return done + self.flush(kind)
        return []

    def flush(self, kind: str) -> list[Rejected]:
        """Hand ``kind``'s buffer to the writer thread once the batch before it is written."""
        rows = self.buffers[kind]
        self.buffers[kind] = []
        done = self.wait()
        if rows:
            self._in_flight = self._pool.submit(self._write, kind, rows)
        return done

    def wait(self) -> list[Rejected]:
        """Wait for the batch in flight: its refused duplicates, or its error raised here."""
        future, self._in_flight = self._in_flight, None
        return future.result() if future is not None else []

    def flush_all(self) -> list[Rejected]:
        done = [problem for kind in _KINDS for problem in self.flush(kind)]
        return done + self.wait()

    def close(self) -> None:
        """Let a batch in flight finish (committed or not) and stop the thread; no errors."""
        if self._in_flight is not None:
            self._in_flight.exception()
        self._pool.shutdown(wait=True)

    @property
    def shared(self) -> int:
        """How many arguments another corpus wrote that this load repeated unchanged."""
        return len(self.shared_ids)

    def _write(self, kind: str, rows: list[dict[str, Any]]) -> list[Rejected]:
        with self.driver.session(database=self.database) as session:
            done = session.execute_write(_write_batch, kind, rows, self.cid, self.token,
                                         self.strict, frozenset(self.shared_ids))  # fmt: skip
        self.nodes_created += done.nodes
        self.relationships_created += done.relationships
        self.shared_ids.update(done.shared)
        return done.refused


@dataclass(frozen=True)
class _Written:
    """What one batch did: nodes and relationships created, the rows it refused, and the ids of
    the arguments another corpus wrote that it repeated unchanged (not written)."""

    nodes: int
    relationships: int
    refused: list[Rejected]
    shared: list[str]


def _split_duplicates(
    rows: list[dict[str, Any]], seen: set[str]
) -> tuple[list[dict[str, Any]], list[Rejected]]:
    """Split off arguments whose id came earlier in this load (``seen``: written ones)."""
    kept, duplicates = [], []
    for row in rows:
        if row["aid"] in seen:
            reason = f"duplicate argument id {row['aid']!r} in this load"
            duplicates.append(Rejected(row["where"], "id", reason))
        else:
            seen.add(row["aid"])
            kept.append(row)
    return kept, duplicates


def _write_batch(
    tx: neo4j.ManagedTransaction,
    kind: str,
    rows: list[dict[str, Any]],
    cid: str,
    token: str,
    strict: bool,
    shared_before: frozenset[str],
) -> _Written:
    """One batch in one transaction (see :class:`_Written`); ``shared_before``: the ids earlier
    batches of this run left to another corpus.

    Argument ids repeated in this load (within the batch, written or left to another corpus by
    an earlier batch of this run), or written by another corpus with other content, are found
    first, in the same transaction; ``strict`` fails the batch on one.
    """
    duplicates: list[Rejected] = []
    shared: list[str] = []
    if kind in ("arguments", "undercuts"):
        aids = [row["aid"] for row in rows]
        result = tx.run(cypher.load("ingest/arg_seen"), {"aids": aids, "token": token})
        seen = {record["aid"] for record in result} | shared_before
        rows, duplicates = _split_duplicates(rows, seen)
        rows, clashes, shared = _split_other_corpora(tx, rows, cid)
        duplicates += clashes
        if kind == "undercuts" and rows:
            rows, missing = _split_missing_targets(tx, rows, cid, shared_before | set(shared))
            duplicates += missing
        if duplicates and strict:
            first = duplicates[0]
            raise LoadError(first.where, first.field, first.reason)
        statements = (
            [] if not rows
            else _argument_statements(rows) if kind == "arguments"
            else _undercut_statements(rows)
        )  # fmt: skip
        if shared:  # recorded as used by this corpus, so that a drop of their owner keeps them
            statements.append(("ingest/arg_shared", {"aids": shared}))
    else:
        statements = [(f"ingest/{kind}", {"rows": rows})]
    nodes, relationships = _run_all(tx, statements, cid, token)
    return _Written(nodes, relationships, duplicates, shared)


def _split_other_corpora(
    tx: neo4j.ManagedTransaction, rows: list[dict[str, Any]], cid: str
) -> tuple[list[dict[str, Any]], list[Rejected], list[str]]:
    """Split off arguments whose id another corpus has written: (rows to write, the ones that
    hold something else there, the ids repeated unchanged).

    An unchanged one (or one that says nothing of a stance the other corpus gave) is left to a
    complete corpus that wrote it: writing it again would make it this corpus's, and a failed
    load of this corpus would then undo it. One that an interrupted load wrote is taken over
    (that load may yet be undone), and so is one whose stance the other corpus left unknown and
    this one gives (data decides a stance, as on a reload). Any other change would merge into
    the other corpus's argument (two conclusions, old and new premises), so it is refused."""
    params = {"aids": [row["aid"] for row in rows], "cid": cid}
    there = {r["aid"]: r for r in tx.run(cypher.load("ingest/arg_other"), params)}
    if not there:
        return rows, [], []
    kept, clashes, shared = [], [], []
    for row in rows:
        other = there.get(row["aid"])
        relation = "new" if other is None else _relation(row, other)
        complete = other is not None and other["status"] == "complete"
        if relation == "new" or relation == "decides" or (relation == "same" and not complete):
            kept.append(row)
        elif relation in ("same", "says less"):
            shared.append(row["aid"])
        else:
            clashes.append(Rejected(row["where"], "id", _clash(row["aid"], other, complete)))
    return kept, clashes, shared


def _relation(row: dict[str, Any], other: Any) -> str:
    """How ``row`` stands to the stored argument ``other`` (ingest/arg_other) of its id:
    ``same``; ``says less`` (no stance where the stored one has one); ``decides`` (a stance
    where the stored one is unknown); ``other`` (another conclusion, premises, target, source,
    or stance)."""
    conclusion = row.get("conclusion")
    if not (
        ([conclusion["uid"]] if conclusion else []) == list(other["conclusions"])
        and {p["uid"] for p in row["premises"]} == set(other["premises"])
        and ([row["target"]] if "target" in row else []) == list(other["targets"])
        and ([row["source"]] if row["source"] else []) == list(other["sources"])
    ):
        return "other"
    stance, stored = row.get("stance", "con"), other["stance"]
    if stance == stored:
        return "same"
    if stance == "unknown":
        return "says less"
    return "decides" if stored == "unknown" else "other"


def _clash(aid: str, other: Any, complete: bool) -> str:
    reason = (
        f"argument id {aid!r} is in the graph already, from corpus {other['corpus']}, with "
        "another conclusion, premises, stance or source (an argument id names one argument "
        "across corpora)"
    )
    if not complete:
        reason += (
            "; that corpus's load did not finish: load its files again to complete it, or "
            f"remove it ('argkb db drop {other['corpus']}')"
        )
    else:  # typically an earlier version of the same file
        reason += (
            f"; to replace that corpus by this input, remove it first ('argkb db drop "
            f"{other['corpus']}') and load again"
        )
    return reason


def _split_missing_targets(
    tx: neo4j.ManagedTransaction, rows: list[dict[str, Any]], cid: str, shared: AbstractSet[str]
) -> tuple[list[dict[str, Any]], list[Rejected]]:
    """Split off undercuts whose target argument this load did not write (it was rejected, or
    another corpus holds a different argument under its id) and did not repeat unchanged
    (``shared``): an undercut of nothing, or of another corpus's argument, would be silently
    wrong."""
    here = {row["aid"] for row in rows}
    targets = sorted({row["target"] for row in rows} - here)
    found = {r["aid"] for r in tx.run(cypher.load("ingest/arg_exist"), {"aids": targets})
             if r["corpus"] == cid or r["aid"] in shared}  # fmt: skip
    kept, missing = [], []
    for row in rows:
        if row["target"] in here or row["target"] in found:
            kept.append(row)
        else:
            reason = f"the argument it attacks, {row['target']!r}, was not loaded"
            missing.append(Rejected(row["where"], "target", reason))
    return kept, missing


def _undercut_statements(rows: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """An undercut batch: premise units, argument nodes (stance con), premise and UNDERCUTS
    edges, sources; as :func:`_argument_statements`."""
    units: dict[str, str] = {}
    for row in rows:
        for unit in row["premises"]:
            if unit["uid"] not in units or not units[unit["uid"]]:
                units[unit["uid"]] = unit["text"]
    return [
        ("ingest/arg_units", {"rows": [
            {"uid": u, "text": t, "labels": ["Premise"]} for u, t in units.items()]}),
        ("ingest/arg_nodes", {"rows": [
            {"aid": r["aid"], "stance": "con", "props": r["props"]} for r in rows]}),
        ("ingest/undercut_edges", {"rows": [
            {"aid": r["aid"], "target": r["target"],
             "premises": [p["uid"] for p in r["premises"]]} for r in rows]}),
        ("ingest/arg_sources", {"rows": [
            {"aid": r["aid"], "source": r["source"]} for r in rows if r["source"]]}),
    ]  # fmt: skip


def _argument_statements(rows: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """An argument batch as four simple statements (one transaction): units once with their role
    labels, argument nodes, edges, sources. Simple statements keep Neo4j's planner free of Eager
    barriers that one combined query needs."""
    units: dict[str, str] = {}
    labels: dict[str, list[str]] = {}
    for row in rows:
        for unit in (row["conclusion"], *row["premises"]):
            if unit["uid"] not in units or not units[unit["uid"]]:
                units[unit["uid"]] = unit["text"]
            labels.setdefault(unit["uid"], [])
    for uid in dict.fromkeys(row["conclusion"]["uid"] for row in rows):
        labels[uid].append("Claim")
    for uid in dict.fromkeys(p["uid"] for row in rows for p in row["premises"]):
        labels[uid].append("Premise")
    return [
        ("ingest/arg_units", {"rows": [
            {"uid": u, "text": t, "labels": labels[u]} for u, t in units.items()]}),
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
