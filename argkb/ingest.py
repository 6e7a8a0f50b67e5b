"""Write loader records to Neo4j: validated, batched, idempotent, resumable.

Records from a loader (:mod:`argkb.loaders`) are checked (:func:`validate`), grouped by kind and
written in batches (:mod:`argkb.ingest_batches`), each batch in one managed write transaction: a
batch is written whole or not at all. A batch of sources, units or links is one ``UNWIND $rows
... MERGE`` query (``cypher/ingest/*.cypher``); a batch of arguments first reads which of its
ids this load or another corpus already wrote (``arg_seen``, ``arg_other``) and then runs four
simple writes (units, argument nodes, edges, sources; ``arg_shared`` too when it shares ids
with another corpus); undercuts also check that the arguments they attack exist
(``arg_exist``). Every ``MERGE`` is keyed by a uniqueness constraint, so writing a batch twice
changes nothing; that makes a load that was killed half-way safe to run again, and a repeated
load of the same files a no-op (the ``(:Corpus {cid})`` node, keyed by the files' content hash,
says it is complete).

A background thread writes one batch while the next one is read and checked, so client and server
work overlap. A bulk load (:func:`load_records`, ``bulk``) drops every full-text index of
``cypher/schema.cypher`` (``claim_text``, ``premise_text``, ``sentence_text``) for the load and
builds them once at the end, which costs far less server time than updating them batch by batch.

After the records, exact reuse is materialised as ``(:Argument)-[:REUSES]->(:Argument)`` and the
corpus node gets its counts.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TextIO

from argkb.db import cypher
from argkb.db.schema import fulltext_statements
from argkb.errors import LoadError, LoadInterrupted
from argkb.ingest_batches import _BatchWriter
from argkb.ingest_check import _checked_row, _row, validate  # noqa: F401 (importable here)
from argkb.loaders.records import (
    LeftOut,
    Record,
    Rejected,
)

if TYPE_CHECKING:
    import neo4j

log = logging.getLogger(__name__)
OnError = Literal["fail", "skip"]
DEFAULT_BATCH = 1000
DEFAULT_MAX_TEXT = 100_000  # characters; a longer "unit" is a parsing accident, not a proposition
# automatic bulk mode (load_records) from this input size: about 11k args.me arguments
BULK_MIN_BYTES = 16 * 2**20
INDEX_WAIT_SECONDS = 24 * 3600  # the longest a bulk load waits for its full-text index population


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
    undercuts: int = 0  # of the arguments: attacks on an argument (docs/data-model.md)
    rejected: int = 0
    # arguments another corpus had loaded with the same id and content: left to that corpus
    shared: int = 0
    rejected_examples: list[str] = field(default_factory=list)
    # structure of valid input that argkb does not model, left out of the graph: kind -> count
    left_out: dict[str, int] = field(default_factory=dict)
    left_out_examples: list[str] = field(default_factory=list)
    reject_report: str | None = None
    nodes_created: int = 0
    relationships_created: int = 0
    bulk: bool = False  # full-text indexes dropped for the load and built after it
    # other corpora of this format loaded from files of the same names (an earlier version of
    # the input, usually) -> the arguments each holds that this corpus does not: they stay
    # beside this corpus's (``argkb db drop`` removes such a corpus)
    same_names: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


# -- corpus identity ---------------------------------------------------------------------------


def _files(paths: Sequence[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.is_file())
            if not files:
                raise LoadError(str(path), "<path>", "empty directory: no files in it")
            yield from files
        elif path.is_file():
            yield path
        elif path.exists():  # a pipe or a device: hashing it would never end
            raise LoadError(str(path), "<file>", "not a regular file (a pipe or a device?)")
        else:
            raise LoadError(str(path), "<file>", "no such file or directory")


def content_hash(paths: Sequence[Path]) -> str:
    """BLAKE2b over every input file's name and bytes, in a fixed order (directories walked)."""
    digest = hashlib.blake2b(digest_size=16)
    for path in _files(paths):
        digest.update(path.name.encode() + b"\0")
        try:
            with path.open("rb") as handle:
                while chunk := handle.read(1 << 20):
                    digest.update(chunk)
        except OSError as err:  # unreadable (permissions, an I/O error): one line, not a trace
            raise LoadError(str(path), "<file>", f"cannot read: {err.strerror or err}") from err
    return digest.hexdigest()


# -- bulk mode: full-text indexes built after the load -----------------------------------------


def _want_bulk(
    driver: neo4j.Driver, database: str | None, cid: str, files: Sequence[Path], resuming: bool
) -> bool:
    """Automatic bulk mode: a large input into a graph that holds nothing else."""
    size = sum(path.stat().st_size for path in _files(files))
    if size < BULK_MIN_BYTES:
        return False
    row = cypher.read(driver, "ingest/graph_state", database=database, cid=cid)[0]
    return bool(row["units"] == 0 or (resuming and row["others"] == 0))


def _restore_indexes(
    driver: neo4j.Driver, database: str | None, names: Iterable[str], *, wait: bool
) -> None:
    """Create argkb's full-text indexes ``names`` (if missing); ``wait`` until they are online."""
    schema = fulltext_statements()
    names = [name for name in names if name in schema]
    for name in names:
        driver.execute_query(schema[name], database_=database)
    if wait:
        for name in names:
            driver.execute_query(
                cypher.load("ingest/await_index"),
                {"name": name, "seconds": INDEX_WAIT_SECONDS},
                database_=database,
            )


def _restore_pending(
    driver: neo4j.Driver, database: str | None, keep: str | None = None
) -> list[str]:
    """Rebuild the indexes that killed bulk loads dropped (all but ``keep``'s, whose names are
    returned): a crashed bulk load never leaves the database without its full-text indexes."""
    kept: list[str] = []
    for row in cypher.read(driver, "ingest/bulk_pending", database=database):
        if row["cid"] == keep:
            kept = list(row["names"])
            continue
        _restore_indexes(driver, database, row["names"], wait=False)
        driver.execute_query(
            cypher.load("ingest/bulk_clear"), {"cid": row["cid"]}, database_=database
        )
    return kept


def _drop_fulltext(
    driver: neo4j.Driver, database: str | None, cid: str, pending: list[str]
) -> list[str]:
    """Drop argkb's full-text indexes for a bulk load; the names are stored on the corpus node
    first, so a load killed from here on leaves a trace the next load (or this one) rebuilds."""
    schema = fulltext_statements()
    present = {
        row["name"] for row in cypher.read(driver, "ingest/fulltext_indexes", database=database)
    }
    names = sorted((present & schema.keys()) | set(pending))
    if names:
        driver.execute_query(
            cypher.load("ingest/bulk_mark"), {"cid": cid, "names": names}, database_=database
        )
    for name in names:
        driver.execute_query(cypher.render("ingest/drop_index", index=name), database_=database)
    return names


# -- the load ----------------------------------------------------------------------------------

_COUNTS = ("arguments", "undercuts", "units", "sources", "reuse_edges", "links", "rejected",
           "shared")  # fmt: skip


def load_records(
    driver: neo4j.Driver,
    fmt: str,
    paths: Sequence[str | os.PathLike[str]],
    records: Iterable[Record | Rejected | LeftOut],
    *,
    database: str | None = None,
    on_error: OnError = "fail",
    batch_size: int = DEFAULT_BATCH,
    max_text: int = DEFAULT_MAX_TEXT,
    reject_report: Path | None = None,
    force: bool = False,
    bulk: bool | None = None,
    progress: Callable[[int], object] | None = None,
) -> LoadSummary:
    """Write ``records`` (from ``fmt``'s loader over ``paths``) as one corpus; see module doc.

    ``on_error="fail"`` raises :class:`LoadError` at the first rejected record. ``"skip"``
    writes every rejected record to ``reject_report`` (JSONL) and loads the rest.
    :class:`LeftOut` items (valid input argkb does not model) are counted in
    ``summary.left_out``, never an error.

    A load that fails (an error while the server still answers) is undone: the graph is left as
    it was before (:func:`undo_load`). A load interrupted by Ctrl-C, SIGKILL or a Neo4j that stops
    answering leaves its corpus ``status: 'loading'``; running it again completes it.

    ``bulk`` drops argkb's full-text indexes (``claim_text``, ``premise_text``,
    ``sentence_text``) for the load and builds them afterwards in one pass, which is much cheaper
    than updating them batch by batch;
    full-text queries find nothing while it runs. The population runs on the server alongside the
    reuse and count phases; phase ``index`` is the wait for it that remains after them. ``None``
    (default) chooses bulk mode for an input of at least ``BULK_MIN_BYTES`` into a graph without
    units (or holding only this corpus, from an interrupted load). A bulk load that is killed
    leaves a mark on its corpus node; the next load rebuilds the indexes (``argkb init`` does as
    well).
    """
    files = [Path(p) for p in paths]
    started = time.perf_counter()
    cid = f"{fmt}:{content_hash(files)[:24]}"
    summary = LoadSummary(cid, fmt, [str(p) for p in files])
    summary.seconds["hash"] = time.perf_counter() - started
    stored = _stored_corpus(driver, database, cid)
    complete = stored is not None and stored.get("status") == "complete"
    use_bulk = not (complete and not force) and (
        bulk if bulk is not None else _want_bulk(driver, database, cid, files, stored is not None)
    )
    pending = _restore_pending(driver, database, keep=cid if use_bulk else None)
    if complete and not force:
        assert stored is not None
        for key in _COUNTS:
            setattr(summary, key, int(stored.get(key, 0)))
        summary.already_loaded = True
        return summary
    if on_error == "skip":
        reject_report = _reject_report(reject_report, cid, files)
    _begin_corpus(driver, database, cid, fmt, files)
    dropped: list[str] = []
    try:
        dropped = _drop_fulltext(driver, database, cid, pending) if use_bulk else []
        summary.bulk = use_bulk
        writer = _BatchWriter(driver, database, cid, batch_size, strict=on_error == "fail")
        rejects = _RejectLog(summary, on_error, reject_report)
        phase = time.perf_counter()
        _write_records(records, writer, rejects, summary, max_text=max_text, progress=progress)
        names = ", ".join(str(p) for p in files)
        _refuse_nothing(summary, names)
        summary.seconds["write"] = time.perf_counter() - phase
        if dropped:  # the server populates them while the reuse edges and counts are computed
            _restore_indexes(driver, database, dropped, wait=False)
        _link_reuse(driver, database, summary, writer)
        _complete_corpus(driver, database, summary, dropped, names)
    except BaseException as err:
        _after_failure(driver, database, cid, dropped, err, was_complete=complete)
        if isinstance(err, KeyboardInterrupt):
            raise LoadInterrupted(cid) from err
        raise
    summary.same_names = _same_names(driver, database, summary, files)
    summary.seconds["total"] = time.perf_counter() - started
    return summary


def _same_names(
    driver: neo4j.Driver, database: str | None, summary: LoadSummary, files: Sequence[Path]
) -> dict[str, int]:
    """Other corpora of this format loaded from files of the same names -> the arguments each
    holds that this corpus does not (:attr:`LoadSummary.same_names`); read after the corpus is
    complete, so that a failure here does not undo it."""
    rows = cypher.read(driver, "ingest/same_names", database=database, cid=summary.corpus,
                       fmt=summary.format, names=_names(files))  # fmt: skip
    return {row["cid"]: row["arguments"] for row in rows if row["arguments"]}


def _refuse_nothing(summary: LoadSummary, names: str) -> None:
    """Never a complete corpus of nothing, whatever the format: LoadError for a load that wrote
    no record (``names``: its input files)."""
    if summary.records == 0:
        reason = (
            f"no records loaded: all {summary.rejected:,} rejected (see {summary.reject_report})"
            if summary.rejected
            else "no records: the input is empty"
        )
        raise LoadError(names, "<file>", reason)


def _unreachable(err: BaseException) -> bool:
    """Whether ``err`` says Neo4j stopped answering (killed, crashed, network gone)."""
    from neo4j.exceptions import ServiceUnavailable, SessionExpired

    return isinstance(err, ServiceUnavailable | SessionExpired | ConnectionError)


def _after_failure(
    driver: neo4j.Driver,
    database: str | None,
    cid: str,
    dropped: list[str],
    err: BaseException,
    *,
    was_complete: bool,
) -> None:
    """What a load that stops with ``err`` leaves: the full-text indexes a bulk load dropped are
    given back; a failed load (an error, the server still answering) is undone
    (:func:`undo_load`); an interrupted one (Ctrl-C, or Neo4j gone) stays ``loading``, so that
    running it again completes it. Problems here are logged: ``err`` is what the caller sees."""
    if _unreachable(err):
        return
    try:
        if dropped:  # population runs on its own
            _restore_indexes(driver, database, dropped, wait=False)
            driver.execute_query(cypher.load("ingest/bulk_clear"), {"cid": cid}, database_=database)
        if isinstance(err, Exception):
            undo_load(driver, cid, database=database, was_complete=was_complete)
    except Exception as problem:  # the load's own error matters more
        log.warning("could not undo the failed load of %s (%s); run it again", cid, problem)


# undo_load's statements, in order, each a file with the identifiers it is rendered with (each
# file says what it removes or passes on)
_UNDO_STEPS: tuple[tuple[str, dict[str, str]], ...] = (
    ("undo_shared", {}), ("undo_arguments", {}), ("undo_units", {}), ("undo_sources", {}),
    ("undo_handover", {"label": "Unit"}), ("undo_handover", {"label": "Source"}),
)  # fmt: skip


def undo_load(
    driver: neo4j.Driver, cid: str, *, database: str | None = None, was_complete: bool = False
) -> None:
    """Remove what the load of corpus ``cid`` wrote, leaving the graph as it was before it.

    Its arguments go, with their edges, but those another corpus repeated (``SHARES``) pass to
    that corpus; units and sources it created go, with the edges it drew on them, unless another
    corpus uses them (an argument of another corpus, or a link or provenance edge another
    corpus drew); those that stay pass to a corpus that uses them; ``Claim``/``Premise`` labels
    its arguments gave other corpora's units are taken back; then its corpus node, with the
    ``SHARES`` edges of what it repeated. A corpus that was ``complete`` before this run (a
    ``--force`` reload) is marked complete again instead: its content was in the graph before.
    """
    if was_complete:
        driver.execute_query(cypher.load("ingest/corpus_end"),
                             {"cid": cid, "counts": {}}, database_=database)  # fmt: skip
        return
    phase = time.perf_counter()
    _undo_corpus(driver, database, cid, _undo_content(driver, database, cid))
    log.info("undid the failed load of %s in %.1f s", cid, time.perf_counter() - phase)


def _undo_content(driver: neo4j.Driver, database: str | None, cid: str) -> set[str]:
    """:func:`undo_load`'s deletes but the last (the corpus node); returns the heirs, the
    corpora that what others use passed to."""
    heirs: set[str] = set()
    with driver.session(database=database) as session:
        for name, identifiers in _UNDO_STEPS:
            result = session.run(cypher.render(f"ingest/{name}", **identifiers), {"cid": cid})
            # the steps that pass on what others use answer the heirs; the others, no rows
            heirs.update(row["heir"] for row in result)
    return heirs


def _undo_corpus(driver: neo4j.Driver, database: str | None, cid: str, heirs: set[str]) -> None:
    """:func:`undo_load`'s last step: the corpus node goes, and the ``heirs`` are recounted."""
    driver.execute_query(cypher.load("ingest/undo_corpus"), {"cid": cid}, database_=database)
    for heir in sorted(heirs - {cid}):  # what passed to them changed their counts
        counts = cypher.read(driver, "ingest/corpus_counts", database=database, cid=heir)[0]
        driver.execute_query(
            cypher.load("ingest/corpus_recount"),
            {"cid": heir, "counts": {key: int(value or 0) for key, value in counts.items()}},
            database_=database,
        )


def _stored_corpus(driver: neo4j.Driver, database: str | None, cid: str) -> dict[str, Any] | None:
    """The properties of the corpus node ``cid``, or None when no load of it ever began."""
    rows = cypher.read(driver, "ingest/corpus_get", database=database, cid=cid)
    return dict(rows[0]["corpus"]) if rows else None


def _names(files: Sequence[Path]) -> str:
    """The corpus node's ``name``: the input files' names, without their folders."""
    return ", ".join(p.name for p in files)


def _begin_corpus(
    driver: neo4j.Driver, database: str | None, cid: str, fmt: str, files: Sequence[Path]
) -> None:
    """Create (or mark as loading again) the corpus node that the load's records point to."""
    driver.execute_query(
        cypher.load("ingest/corpus_begin"),
        {
            "cid": cid,
            "format": fmt,
            "name": _names(files),
            "files": [str(p) for p in files],
            "hash": cid.split(":", 1)[1],
        },
        database_=database,
    )


def _printable(text: str) -> str:
    """``text`` on one line, with anything that is not Unicode (lone surrogates) as backslash
    escapes, so a message about bad input can always be printed and written as one line."""
    one_line = re.sub(r"\s*[\r\n]+\s*", " ", text)
    return one_line.encode("utf-8", "backslashreplace").decode("utf-8")


def _reject_report(path: Path | None, cid: str, inputs: Sequence[Path]) -> Path:
    """Where a skip-mode load writes its rejected records (``path``, or a file named after the
    corpus in the current folder), checked before anything is read: not one of the inputs (it
    would be overwritten while read) and writable."""
    path = path or Path(f"argkb-rejected-{cid.replace(':', '-')}.jsonl")
    where, field = str(path), "<reject-report>"
    resolved = path.resolve()
    if any(resolved == file.resolve() for file in _files(inputs)):
        raise LoadError(where, field, "is one of the input files: name another file")
    if path.exists():
        if path.is_dir():
            raise LoadError(where, field, "is a folder: name a file")
        target = path  # a file, or a device or pipe (/dev/null: no report kept)
    elif path.parent.is_dir():
        target = path.parent
    else:
        raise LoadError(where, field, f"folder {str(path.parent)!r} does not exist")
    if not os.access(target, os.W_OK):
        raise LoadError(where, field, "cannot be written here: permission denied")
    return path


class _RejectLog:
    """Where rejected records go: raised as :class:`LoadError` (``on_error="fail"``), or counted
    in the summary and written to a JSONL report (checked by :func:`_reject_report`) that is
    opened on the first rejection; a report that cannot be written after all is one error."""

    def __init__(self, summary: LoadSummary, on_error: OnError, path: Path | None) -> None:
        self.summary = summary
        self.fail = on_error == "fail"
        self.path = path  # skip mode: the report :func:`_reject_report` chose; fail mode: unused
        self._out: TextIO | None = None

    def __call__(self, problem: Rejected) -> None:
        problem = Rejected(*(_printable(text) for text in (problem.where, problem.field,
                                                          problem.reason)))  # fmt: skip
        if self.fail:
            raise LoadError(problem.where, problem.field, problem.reason)
        summary = self.summary
        summary.rejected += 1
        if len(summary.rejected_examples) < 5:
            summary.rejected_examples.append(str(problem))
        entry = {"where": problem.where, "field": problem.field, "reason": problem.reason}
        assert self.path is not None  # skip mode
        with self._unwritable():
            if self._out is None:
                self._out = self.path.open("w", encoding="utf-8")
                summary.reject_report = str(self.path)
            self._out.write(json.dumps(entry) + "\n")

    def close(self) -> None:
        if self._out is not None:
            out, self._out = self._out, None
            with self._unwritable():
                out.close()

    @contextlib.contextmanager
    def _unwritable(self) -> Iterator[None]:
        try:
            yield
        except OSError as err:  # a full disk, a folder that changed since the check
            raise LoadError(
                str(self.path), "<reject-report>", f"cannot be written: {err.strerror or err}"
            ) from err


def _write_records(
    records: Iterable[Record | Rejected | LeftOut],
    writer: _BatchWriter,
    rejects: _RejectLog,
    summary: LoadSummary,
    *,
    max_text: int,
    progress: Callable[[int], object] | None,
) -> None:
    """Check every record and hand it to ``writer``; rejected records, and arguments the writer
    refused as repeated ids, go to ``rejects``. Ends with every batch written."""
    try:
        for item in records:
            if isinstance(item, LeftOut):
                _note_left_out(summary, item)
                continue
            checked = _checked_row(item, max_text)
            if isinstance(checked, Rejected):
                rejects(checked)
                continue
            kind, row = checked
            summary.records += 1
            for duplicate in writer.add(kind, row):
                summary.records -= 1
                rejects(duplicate)
            summary.links += kind == "links"
            if progress is not None:
                progress(1)
        for duplicate in writer.flush_all():
            summary.records -= 1
            rejects(duplicate)
        summary.shared = writer.shared
    except BaseException:
        # the batch in flight came earlier in the input: its error is the first one
        writer.wait()
        raise
    finally:
        writer.close()
        rejects.close()


def _note_left_out(summary: LoadSummary, item: LeftOut) -> None:
    """Count structure the loader left out (a warning, not a rejection); keep a few examples."""
    summary.left_out[item.kind] = summary.left_out.get(item.kind, 0) + 1
    if len(summary.left_out_examples) < 5:
        summary.left_out_examples.append(_printable(str(item)))


def _link_reuse(
    driver: neo4j.Driver, database: str | None, summary: LoadSummary, writer: _BatchWriter
) -> None:
    """Materialise exact reuse as ``REUSES`` edges; add up what the load created."""
    phase = time.perf_counter()
    with driver.session(database=database) as session:
        reuse = session.run(cypher.load("ingest/reuse")).consume()
    summary.relationships_created = (
        writer.relationships_created + reuse.counters.relationships_created
    )
    summary.nodes_created = writer.nodes_created
    summary.seconds["reuse"] = time.perf_counter() - phase


def _complete_corpus(
    driver: neo4j.Driver, database: str | None, summary: LoadSummary, dropped: list[str],
    names: str,
) -> None:  # fmt: skip
    """Count the corpus, wait for the full-text indexes a bulk load rebuilt, and mark the corpus
    complete: a corpus is complete only with its full-text indexes online, and with an argument,
    its own or one another corpus loaded before it (an AIF map without nodes gave a source and
    nothing else; ``names``: the input's files)."""
    phase = time.perf_counter()
    counts = cypher.read(driver, "ingest/corpus_counts", database=database, cid=summary.corpus)
    for key, value in counts[0].data().items():
        setattr(summary, key, int(value or 0))
    if summary.arguments == 0 and not summary.shared:  # shared: left to the corpus before it
        raise LoadError(names, "<file>", f"no arguments: {summary.records:,} record(s) loaded, "
                                         "none an argument")  # fmt: skip
    stored_counts = {key: getattr(summary, key) for key in _COUNTS}
    summary.seconds["count"] = time.perf_counter() - phase
    if dropped:
        phase = time.perf_counter()
        _restore_indexes(driver, database, dropped, wait=True)
        summary.seconds["index"] = time.perf_counter() - phase
    phase = time.perf_counter()
    driver.execute_query(
        cypher.load("ingest/corpus_end"),
        {"cid": summary.corpus, "counts": stored_counts},
        database_=database,
    )
    summary.seconds["count"] += time.perf_counter() - phase
