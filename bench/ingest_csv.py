"""The graph argkb's loader writes for an args.me file, as ``neo4j-admin import`` CSV files.

Part of ``python -m bench ingest``: its baseline (c) imports these files, and its baseline (b)
writes the same records one statement at a time. Two streaming passes over the file: the first
learns which units are claims or premises and which arguments conclude each claim (for labels
and REUSES edges), the second writes the rows in argkb's write order.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CLAIM, PREMISE = 1, 2  # bits of a unit's role
NODE_FILES = ["units", "arguments", "sources", "corpus"]
HEADERS = {
    "units": ["uid:ID(Unit)", "text", "corpus", ":LABEL"],
    "arguments": ["aid:ID(Argument)", "stance", "corpus", ":LABEL"],
    "sources": ["sid:ID(Source)", "title", "url", "discussion", "corpus", ":LABEL"],
    "corpus": [
        "cid:ID(Corpus)",
        "format",
        "name",
        "status",
        "arguments",
        "units",
        "sources",
        "reuse_edges",
        ":LABEL",
    ],
    "concludes": [":START_ID(Argument)", ":END_ID(Unit)", ":TYPE"],
    "premise_of": [":START_ID(Unit)", ":END_ID(Argument)", "stance", ":TYPE"],
    "from": [":START_ID(Argument)", ":END_ID(Source)", ":TYPE"],
    "reuses": [":START_ID(Argument)", ":END_ID(Argument)", ":TYPE"],
}
NAMES = list(HEADERS)  # the files, node files first


def accepted_records(path: Path) -> Iterator[Any]:
    """The loader records of ``path`` that argkb's load writes: valid, argument ids first seen.

    For the baselines (b) and (c), so that they write exactly argkb's graph. The set of seen ids
    grows with the corpus; that is fine for a baseline, not for argkb's loader.
    """
    from argkb.ingest import DEFAULT_MAX_TEXT, validate
    from argkb.loaders import reader
    from argkb.loaders.records import ArgumentRecord, Rejected

    seen: set[str] = set()
    for record in reader("argsme")([path]):
        if isinstance(record, Rejected) or validate(record, DEFAULT_MAX_TEXT):
            continue
        if isinstance(record, ArgumentRecord):  # argkb refuses repeated ids
            if record.aid in seen:
                continue
            seen.add(record.aid)
        yield record


def claim_roles(path: Path) -> tuple[dict[str, int], dict[str, list[str]]]:
    """Pass 1: each unit's role bits, and the arguments that conclude each claim."""
    from argkb.loaders.records import ArgumentRecord

    role: dict[str, int] = {}
    concluders: dict[str, list[str]] = {}
    for record in accepted_records(path):
        if isinstance(record, ArgumentRecord):
            uid = record.conclusion.uid
            role[uid] = role.get(uid, 0) | CLAIM
            concluders.setdefault(uid, []).append(record.aid)
            for p in record.premises:
                role[p.uid] = role.get(p.uid, 0) | PREMISE
    return role, concluders


class CsvGraph:
    """Pass 2: the open CSV files and what has been written to them (first text seen wins, as
    ``ON CREATE SET`` in argkb's load)."""

    def __init__(
        self, out: Path, cid: str, role: dict[str, int], concluders: dict[str, list[str]]
    ) -> None:
        self.out, self.cid, self.role, self.concluders = out, cid, role, concluders
        self.handles = {
            n: (out / f"{n}.csv").open("w", encoding="utf-8", newline="") for n in NAMES
        }
        self.writers = {n: csv.writer(h, lineterminator="\n") for n, h in self.handles.items()}
        for name, header in HEADERS.items():
            self.writers[name].writerow(header)
        self.rows = dict.fromkeys(NAMES, 0)
        self.multiline: set[str] = set()
        self.written_units: set[str] = set()
        self.sources: set[str] = set()
        self.arguments = self.reuse_edges = 0

    def unit(self, uid: str, text: str) -> None:
        if uid in self.written_units:
            return
        self.written_units.add(uid)
        labels = (
            "Unit"
            + (";Claim" if self.role[uid] & CLAIM else "")
            + (";Premise" if self.role[uid] & PREMISE else "")
        )
        if "\n" in text or "\r" in text:
            self.multiline.add("units")
        self.writers["units"].writerow([uid, text, self.cid, labels])
        self.rows["units"] += 1

    def source(self, record: Any) -> None:
        """A source record, unless its id was written already."""
        if record.sid in self.sources:
            return
        self.sources.add(record.sid)
        props = dict(record.properties)
        values = [props.get(k, "") for k in ("title", "url", "discussion")]
        if any("\n" in str(v) or "\r" in str(v) for v in values):
            self.multiline.add("sources")
        self.writers["sources"].writerow([record.sid, *values, self.cid, "Source"])
        self.rows["sources"] += 1

    def argument(self, record: Any) -> None:
        """An argument with its units, CONCLUDES, PREMISE_OF, REUSES and FROM rows."""
        self.arguments += 1
        aid = record.aid
        self.writers["arguments"].writerow([aid, record.stance, self.cid, "Argument"])
        self.rows["arguments"] += 1
        self.unit(record.conclusion.uid, record.conclusion.text)
        self.writers["concludes"].writerow([aid, record.conclusion.uid, "CONCLUDES"])
        self.rows["concludes"] += 1
        reused: set[str] = set()
        first: dict[str, Any] = {}
        for p in record.premises:
            first.setdefault(p.uid, p)
        for p in first.values():
            self.unit(p.uid, p.text)
            self.writers["premise_of"].writerow([p.uid, aid, record.stance, "PREMISE_OF"])
            self.rows["premise_of"] += 1
            reused.update(a for a in self.concluders.get(p.uid, ()) if a != aid)
        for target in reused:
            self.writers["reuses"].writerow([aid, target, "REUSES"])
        self.rows["reuses"] += len(reused)
        self.reuse_edges += len(reused)
        if record.source is not None:
            if record.source not in self.sources:
                self.sources.add(record.source)
                self.writers["sources"].writerow([record.source, "", "", "", self.cid, "Source"])
                self.rows["sources"] += 1
            self.writers["from"].writerow([aid, record.source, "FROM"])
            self.rows["from"] += 1

    def close(self, name: str) -> dict[str, Any]:
        """Write the corpus node (``name``: the file's name), close the files; the summary."""
        counts = [self.arguments, len(self.written_units), len(self.sources), self.reuse_edges]
        self.writers["corpus"].writerow([self.cid, "argsme", name, "complete", *counts, "Corpus"])
        self.rows["corpus"] = 1
        for handle in self.handles.values():
            handle.close()
        out, rel_files = self.out, [n for n in NAMES if n not in NODE_FILES]
        return {
            "arguments": self.arguments,
            "nodes": sum(self.rows[n] for n in NODE_FILES),
            "relationships": sum(self.rows[n] for n in rel_files),
            "node_files": [str(out / f"{n}.csv") for n in NODE_FILES],
            "rel_files": [str(out / f"{n}.csv") for n in rel_files],
            "multiline_files": [str(out / f"{n}.csv") for n in sorted(self.multiline)],
            "bytes": sum((out / f"{n}.csv").stat().st_size for n in NAMES),
            "reuse_edges": self.reuse_edges,
        }


def write_csv(path: Path, out: Path, cid: str) -> dict[str, Any]:
    """Both passes over ``path``: the CSV files in ``out``, and what they hold."""
    from argkb.loaders.records import ArgumentRecord, SourceRecord

    role, concluders = claim_roles(path)
    graph = CsvGraph(out, cid, role, concluders)
    for record in accepted_records(path):
        if isinstance(record, SourceRecord):
            graph.source(record)
        elif isinstance(record, ArgumentRecord):
            graph.argument(record)
    return graph.close(path.name)
