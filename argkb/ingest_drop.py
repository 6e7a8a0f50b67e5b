"""``argkb db drop CORPUS``: remove one corpus from the graph, as a failed load of it is undone
(:func:`argkb.ingest.undo_load`), and mark the derived data it leaves stale.

Apart from :mod:`argkb.ingest` (which writes and undoes loads) so that each stays a module a
reader takes in at once.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from argkb.db import cypher, jobs
from argkb.errors import ArgKBError
from argkb.ingest import (
    _drop_fulltext,
    _restore_indexes,
    _restore_pending,
    _stored_corpus,
    _undo_content,
    _undo_corpus,
)

if TYPE_CHECKING:
    import neo4j

log = logging.getLogger(__name__)


def drop_corpus(
    driver: neo4j.Driver, cid: str, *, database: str | None = None, fulltext: bool = True
) -> dict[str, Any]:
    """Remove corpus ``cid`` from the graph as a failed load of it is undone
    (:func:`argkb.ingest.undo_load`): its arguments, the units and sources no other corpus
    uses, the labels it gave, its corpus node. The full-text indexes a killed bulk load dropped
    are rebuilt first. Returns the corpus node's properties, ``redo``, the derived data marked
    to be redone (below), and ``rebuilt``, the full-text indexes built again (below);
    :class:`ArgKBError` names the corpora there are when none is ``cid``.

    Derived data is not recomputed here: clusters keep their other members and PageRank its
    scores. Before its first delete the drop marks the corpus 'dropping' and those that exist as
    to be redone (the job marks of :mod:`argkb.db.jobs`), so that ``argkb status`` lists them
    and ``argkb update`` (or ``argkb cluster`` and ``argkb pagerank``) rebuilds the clusters
    and recomputes PageRank, also after a drop cut off midway (which ``argkb status`` lists as
    unfinished and ``argkb update`` refuses until the drop is run again). Where no unit remains,
    the clusters and the sentence term statistics, which then describe nothing, are removed
    with the marks: a corpus loaded next is clustered and counted as in a fresh graph.

    ``fulltext`` (default): once the corpus's nodes are deleted, and before its corpus node
    goes, argkb's full-text indexes are built again (:func:`_rebuild_fulltext`), so that BM25
    scores are those of a graph loaded without the corpus; ``fulltext=False`` leaves them
    counting its deleted texts (for a benchmark's baseline)."""
    stored = _stored_corpus(driver, database, cid)
    if stored is None:
        from argkb.db.schema import corpora

        there = corpora(driver, database)
        known = ", ".join(f"{r['cid']} ({', '.join(r['files'] or [])})" for r in there[:5])
        more = f" and {len(there) - 5} more" if len(there) > 5 else ""
        loaded = f"loaded: {known}{more}" if there else "no corpus is loaded"
        raise ArgKBError(f"no corpus {cid!r} ({loaded})")
    _restore_pending(driver, database)
    redo = _mark_dropping(driver, database, cid, stored)
    heirs = _undo_content(driver, database, cid)
    rebuilt = _rebuild_fulltext(driver, database, cid) if fulltext and _held(stored) else []
    _undo_corpus(driver, database, cid, heirs)
    if not cypher.read(driver, "status/prerequisites", database=database)[0]["units"]:
        with driver.session(database=database) as session:
            for kind in ("claim", "premise"):
                session.run(cypher.load("cluster/drop_clusters"), {"kind": kind}).consume()
            session.run(cypher.load("sentences/clear_terms")).consume()
        for name in redo:  # nothing is left to redo them for
            jobs.finish(driver, database, name)
        redo = []
    return {**stored, "redo": redo, "rebuilt": rebuilt}


def _held(stored: dict[str, Any]) -> bool:
    """Whether the drop of the corpus node ``stored`` deletes anything: a complete corpus that
    held nothing of its own (every argument repeated from another corpus) deletes nothing (its
    arguments pass to those corpora)."""
    return stored.get("status") != "complete" or any(
        stored.get(key) for key in ("arguments", "units", "sources", "links")
    )


def _rebuild_fulltext(driver: neo4j.Driver, database: str | None, cid: str) -> list[str]:
    """Drop argkb's full-text indexes and build them again, as a bulk load does after its
    writes (the same functions), and return their names.

    Lucene keeps a deleted node's document in its BM25 statistics (document count, average
    length, document frequencies) until it merges the document's segment away, which a small
    drop may not cause for a long time: the scores after a drop would differ from those of a
    graph loaded without the corpus. Neo4j has no procedure that merges an index's segments,
    and an index's name is what every query reads, so the indexes are dropped and created
    again. The names are stored on the corpus node first (``bulk_indexes``, as a bulk load
    does): a drop killed from here on leaves the corpus 'dropping' with that mark, and the
    next load or drop (the drop run again) creates the indexes again. While they populate, a
    query answers from its other routes with a note (:mod:`argkb.retrieve.routes`)."""
    phase = time.perf_counter()
    names = _drop_fulltext(driver, database, cid, [])
    _restore_indexes(driver, database, names, wait=True)
    log.info("rebuilt the full-text indexes %s in %.1f s", ", ".join(names),
             time.perf_counter() - phase)  # fmt: skip
    return names


def _mark_dropping(
    driver: neo4j.Driver, database: str | None, cid: str, stored: dict[str, Any]
) -> list[str]:
    """Before the drop's first delete: mark corpus ``cid`` 'dropping' and leave the job marks of
    the derived data it makes stale (returned), so that a drop cut off midway is listed by
    ``argkb status`` and leaves clusters and PageRank to redo, as a drop that ends does."""
    held = _held(stored)  # else it took nothing from the clusters or PageRank
    has = cypher.read(driver, "status/prerequisites", database=database)[0]
    redo = ["cluster:claim", "cluster:premise"] if held and has["clustered"] else []
    redo += ["pagerank"] if held and has["ranked"] else []
    driver.execute_query(cypher.load("ingest/corpus_dropping"), {"cid": cid}, database_=database)
    for name in redo:
        jobs.begin(driver, database, name)
    return redo
