"""Any judged corpus as a benchmark: ``argkb eval dataset`` (no Python needed).

Inputs
------
* **corpus**: a JSONL file in argkb's generic format (docs/formats.md, ``argkb.loaders.jsonl``),
  loaded into a fresh database with argkb's own loader.
* **topics**: TSV ``qid<TAB>text[<TAB>stance]`` (or JSON, :func:`argkb.eval.trec.read_topics`).
* **qrels**: TREC ``qid 0 docid grade``. ``docid`` names a premise by its ``id`` in the corpus file,
  else an argument by its ``id`` (the line's ``id``, without argkb's ``jsonl:`` prefix). The same
  premise may be judged for several topics.
* **clusters** (optional): ground-truth clusters ``qid docid cluster_id`` (Task A/B, mnDCG).

Documents
---------
A ranker returns premise ``Unit.uid`` s. A premise with an ``id`` is the unit ``id:<id>``; one
without is identified by its normalised text (:func:`argkb.loaders.records.text_key`), so equal
texts are one unit wherever they occur. A unit's *names* are its premise ``id`` (if any), then
the ``id`` of every argument (line) it is a premise of, in file order. For a query, a unit maps to
the first of its names that the query's qrels judge, else to its first name; several units of
one argument without premise ids all map to that argument, which counts where it first appears.
Every qrels docid must be a name of some premise of the corpus (a typo would silently score 0):
otherwise the run stops with an error naming the qrels file and the unknown ids, and the first
corpus line the loader rejected, if any. A corpus with no usable premise is refused with its first
rejected line (file, line, field).

Scope
-----
Without ``collection`` the rankers see the whole database, so the database must hold only this
corpus: the harness refuses one that holds other corpora (``argkb db clear`` empties it). With
``collection`` (a ``Source.sid`` prefix; the corpus's ``source`` ids are stored as
``jsonl:<source id>``) rankers restrict their candidates to arguments from those sources, and
other corpora may be present (BM25's IDF still counts them).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argkb.errors import EvaluationError
from argkb.eval.corpus import load_benchmark_corpus
from argkb.eval.harness import (
    Benchmark,
    HarnessOptions,
    HarnessReport,
    run_dataset,
)
from argkb.eval.trec import Clusters, Qrels, Query

if TYPE_CHECKING:
    import neo4j

    from argkb.loaders.records import ArgumentRecord, Rejected

__all__ = [
    "BASELINES",
    "DEPTH",
    "build_benchmark",
    "document_names",
    "load_corpus",
    "prepare_benchmark",
    "require_fresh",
    "run_corpus",
]

BASELINES = ("bm25", "cosine", "random")
DEPTH = 100
_SHOWN = 5  # unknown docids named in an error message


def _argument_id(record: ArgumentRecord, split: bool) -> str:
    """The line's own ``id`` from the loader's aid (``jsonl:<id>`` or ``jsonl:<id>:<stance>``)."""
    base = record.aid.removeprefix("jsonl:")
    return base.removesuffix(f":{record.stance}") if split else base


def _arguments(corpus: Path, rejected: list[Rejected]) -> Iterator[list[ArgumentRecord]]:
    """The argument records of each corpus line (two when a line has both stances); the lines
    the loader rejects are added to ``rejected``."""
    from argkb.loaders import jsonl
    from argkb.loaders.records import ArgumentRecord, Rejected

    line: list[ArgumentRecord] = []
    for record in jsonl.read([corpus]):
        if isinstance(record, Rejected):
            rejected.append(record)
        if not isinstance(record, ArgumentRecord):
            continue
        if line and record.where != line[0].where:
            yield line
            line = []
        line.append(record)
    if line:
        yield line


def document_names(corpus: str | os.PathLike[str]) -> dict[str, list[str]]:
    """``uid -> names`` of every premise unit of ``corpus`` (module docstring, *Documents*).

    Parameters
    ----------
    corpus : path
        A JSONL corpus in argkb's generic format; lines the loader rejects are left out.

    Returns
    -------
    dict
        For each premise unit key, its premise ``id`` (when given), then the ids of the arguments
        it is a premise of, in file order, each once.
    """
    return _corpus_index(Path(corpus))[0]


def _corpus_index(corpus: Path) -> tuple[dict[str, list[str]], list[str], list[Rejected]]:
    """:func:`document_names`, the source ids of the corpus's arguments in file order (each
    once), and the lines the loader rejected, from one reading of the file."""
    names: dict[str, list[str]] = {}
    sources: dict[str, None] = {}
    rejected: list[Rejected] = []
    for line in _arguments(corpus, rejected):
        split = len(line) > 1
        for record in line:
            if record.source is not None:
                sources[record.source] = None
            argument = _argument_id(record, split)
            for premise in record.premises:
                own = names.setdefault(premise.uid, [])
                if premise.key is not None and premise.key.startswith("id:"):
                    pid = premise.key.removeprefix("id:")
                    if pid not in own:
                        own.insert(0, pid)
                if argument not in own:
                    own.append(argument)
    return names, list(sources), rejected


def build_benchmark(
    name: str,
    queries: list[Query],
    qrels: Qrels,
    clusters: Clusters | None,
    names: Mapping[str, list[str]],
    *,
    qrels_path: str = "qrels",
    rejected: Sequence[Rejected] = (),
) -> Benchmark:
    """The benchmark of a judged corpus: queries, qrels, clusters and the uid -> docid map.

    ``rejected``: the corpus lines the loader rejected, named when judged ids are unknown
    (they may be on those lines).

    Raises
    ------
    EvaluationError
        When a judged docid names no premise or argument of the corpus, or the topics and qrels
        share no query.
    """
    known = {doc for docs in names.values() for doc in docs}
    unknown = sorted({doc for judged in qrels.values() for doc in judged} - known)
    if unknown:
        shown = ", ".join(unknown[:_SHOWN]) + (", ..." if len(unknown) > _SHOWN else "")
        raise EvaluationError(
            f"{qrels_path}: {len(unknown)} judged docid(s) are neither a premise id nor an "
            f"argument id of the corpus: {shown}"
            + (f"; {_rejected_lines(rejected)}" if rejected else "")
        )
    qids = {query.qid for query in queries}
    if not qids & set(qrels):
        raise EvaluationError(f"{qrels_path}: no judged query is in the topics")
    fallback = {uid: docs[0] for uid, docs in names.items() if docs}
    units_named: dict[str, list[str]] = {}
    for uid, docs in names.items():
        for doc in docs:
            units_named.setdefault(doc, []).append(uid)
    doc_ids: dict[str, dict[str, str]] = {}
    for query in queries:
        judged = qrels.get(query.qid, {})
        own: dict[str, str] = {}
        for uid in {uid for doc in judged for uid in units_named.get(doc, ())}:
            chosen = next(doc for doc in names[uid] if doc in judged)
            if chosen != fallback[uid]:
                own[uid] = chosen
        doc_ids[query.qid] = own
    notes = {
        "dataset": name,
        "collection": queries[0].collection if queries else None,
        "premise_units": len(names),
        "documents": len(known),
        "judged": sum(len(judged) for judged in qrels.values()),
        "relevant": sum(1 for judged in qrels.values() for g in judged.values() if g > 0),
        "queries_without_qrels": sorted(qids - set(qrels)),
        "qrels_without_topic": sorted(set(qrels) - qids),
    }
    return Benchmark(name, queries, qrels, clusters, doc_ids, fallback, notes)


def _rejected_lines(rejected: Sequence[Rejected]) -> str:
    """``N corpus line(s) rejected, first: <where>: field 'f': <reason>``, without the field
    where the whole line is at fault (:func:`argkb.errors.located`)."""
    return f"{len(rejected)} corpus line(s) rejected, first: {rejected[0]}"


def _require_arguments(corpus: Path, names: Mapping[str, list[str]],
                       rejected: Sequence[Rejected]) -> None:  # fmt: skip
    """Refuse a corpus with no premise to rank, naming its first rejected line: without this,
    a truncated or empty corpus was reported as unknown ids of the qrels."""
    from argkb.errors import LoadError

    if names:
        return
    if not rejected:
        raise LoadError(str(corpus), "premises", "no argument with a premise in the corpus")
    raise LoadError.at_first(rejected)


def require_fresh(
    driver: neo4j.Driver, cid: str, *, database: str | None = None, collection_option: bool = True
) -> None:
    """Refuse a database that holds anything but the corpus ``cid`` (loaded or not yet).

    Raises
    ------
    EvaluationError
        Naming the other corpora and how to empty the database.
    """
    from argkb.db import cypher

    row = cypher.read(driver, "eval/other_corpora", database=database, cid=cid)[0]
    others = list(row["others"])
    if others or (row["has_units"] and not row["loaded"]):
        what = ", ".join(others[:_SHOWN]) if others else "units that no corpus load wrote"
        raise EvaluationError(
            f"the database is not fresh: it holds {what}. Evaluate in an empty database "
            "(`argkb db clear` empties it)"
            + (
                ", or pass --collection to restrict the rankers to this corpus's sources"
                if collection_option
                else ""
            )
        )


def load_corpus(
    driver: neo4j.Driver,
    corpus: str | os.PathLike[str],
    *,
    database: str | None = None,
    fresh: bool = True,
    reject_report: Path | None = None,
) -> dict[str, Any]:
    """Load the JSONL corpus with argkb's loader (idempotent); rejected lines are skipped and
    listed in ``reject_report``. With ``fresh``, first :func:`require_fresh`."""
    from argkb.ingest import content_hash
    from argkb.loaders import jsonl

    path = Path(corpus)
    if fresh:
        require_fresh(driver, f"{jsonl.FORMAT}:{content_hash([path])[:24]}", database=database)
    return load_benchmark_corpus(driver, jsonl.FORMAT, [path], jsonl.read([path]),
                                 database=database, reject_report=reject_report)  # fmt: skip


@dataclass(frozen=True)
class DatasetFiles:
    """The files of a judged corpus (module docstring, *Inputs*)."""

    corpus: str | os.PathLike[str]
    topics: str | os.PathLike[str]
    qrels: str | os.PathLike[str]
    clusters: str | os.PathLike[str] | None = None


def prepare_benchmark(files: DatasetFiles, *, collection: str | None = None) -> Benchmark:
    """Read and check the topics, qrels, clusters and corpus (no database needed).

    Raises
    ------
    EvaluationError, EvalFileError
        A missing corpus, a malformed line of the evaluation files, judged ids that the corpus
        does not have, or a ``collection`` that selects none of its sources.
    """
    from argkb.eval import trec
    from argkb.eval.scoring import check_clusters

    corpus = Path(files.corpus)
    if not corpus.is_file():
        raise EvaluationError(f"{corpus}: no such corpus file")
    queries = [Query(q.qid, q.text, q.stance, collection) for q in trec.read_topics(files.topics)]
    qrels = trec.read_qrels(files.qrels)
    clusters = trec.read_clusters(files.clusters) if files.clusters is not None else None
    if clusters is not None:
        check_clusters(str(files.clusters), clusters, [q.qid for q in queries], qrels)
    names, sources, rejected = _corpus_index(corpus)
    _require_arguments(corpus, names, rejected)
    benchmark = build_benchmark(
        f"dataset-{corpus.stem}",
        queries,
        qrels,
        clusters,
        names,
        qrels_path=str(files.qrels),
        rejected=rejected,
    )
    benchmark.notes["corpus"] = str(corpus)
    if collection is not None:  # refused before anything is loaded
        _require_corpus_source(corpus.name, sources, collection)
    return benchmark


def _require_corpus_source(name: str, sources: list[str], collection: str) -> None:
    """Refuse a ``--collection`` prefix that selects none of the corpus's own ``sources``: the
    judged premises would all be left out and every ranker would score 0."""
    if not any(sid.startswith(collection) for sid in sources):
        there = ", ".join(sources[:_SHOWN]) or "none: its lines give no source"
        raise EvaluationError(
            f"--collection {collection!r} selects none of {name}'s sources ({there})"
        )


def run_corpus(
    driver: neo4j.Driver,
    files: DatasetFiles,
    *,
    database: str | None = None,
    collection: str | None = None,
    options: HarnessOptions | None = None,
    benchmark: Benchmark | None = None,
) -> HarnessReport:
    """``argkb eval dataset``: check the files, load the corpus, rank, score and write.

    ``options`` (:class:`~argkb.eval.harness.HarnessOptions`) picks the rankers (default:
    argkb's default ranker and :data:`BASELINES`), output folder, depth (default 100) and the
    grade from which a document is relevant for P@k. ``benchmark``: the result of
    :func:`prepare_benchmark` when the caller checked the files already.
    """
    bench = benchmark or prepare_benchmark(files, collection=collection)
    corpus = Path(files.corpus)
    return run_dataset(
        driver,
        bench.name,
        database=database,
        load=lambda report: load_corpus(
            driver, corpus, database=database, fresh=collection is None, reject_report=report
        ),
        build=lambda: bench,
        collection=collection,
        baselines=BASELINES,
        depth=DEPTH,
        options=options,
    )
