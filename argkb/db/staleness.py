"""What a graph's derived data has not caught up with: the steps to run after a load.

``argkb load`` adds units and arguments; embeddings, clusters and PageRank are computed by later
commands, each of which touches only what is new (``argkb embed``: units without a vector;
``argkb cluster``: units without a cluster; ``argkb pagerank --warm``: a warm start from the
stored scores). :func:`stale_steps` counts what each step still has to do, and the runs of a step
that were interrupted while writing (:mod:`argkb.db.jobs`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from argkb.db import cypher

if TYPE_CHECKING:
    import neo4j


@dataclass(frozen=True)
class Stale:
    what: str  # e.g. units_without_embedding
    count: int
    command: str  # what to run so that count becomes 0
    description: str


SPLITTER = 2
"""The version of argkb's sentence splitter (:mod:`argkb.sentences.split`), stored on each
premise it split (``Unit.split_version``): a premise split by another version is split again by
the next ``argkb sentences`` and counted stale here. Raise it whenever a change to the splitter
moves sentence boundaries. 1: syntok alone (a premise without ``split_version``); 2: with the
splitter's extra cuts (2026-12-02)."""

# (field of status/stale.cypher, command, description, the description of a count of one)
_STEPS: tuple[tuple[str, str, str, str], ...] = (
    (
        "units_without_embedding",
        "argkb embed",
        "units without an embedding",
        "unit without an embedding",
    ),
    (
        "claims_without_negation_embedding",
        "argkb embed",
        "claims without the embedding of their negation (stance alignment)",
        "claim without the embedding of its negation (stance alignment)",
    ),
    (
        "premises_without_sentences",
        "argkb sentences",
        "premises not split into sentences (or whose text or argkb's splitter changed since)",
        "premise not split into sentences (or whose text or argkb's splitter changed since)",
    ),
    (
        "corpora_since_sentences",
        "argkb sentences",
        "corpora loaded since the last 'argkb sentences' (their premises may be missing from "
        "'argkb query --pairs', which notes them)",
        "corpus loaded since the last 'argkb sentences' (its premises may be missing from "
        "'argkb query --pairs', which notes them)",
    ),
    (
        "sentences_without_embedding",
        "argkb sentences --embed",
        "sentences without a vector, where others have one ('argkb sentences --embed' ran)",
        "sentence without a vector, where others have one ('argkb sentences --embed' ran)",
    ),
    (
        "sentence_statistics_off",
        "argkb sentences",
        "sentences the term statistics of 'argkb query --pairs' miscount (a corpus dropped or a "
        "failed load undone since; 'argkb sentences' recounts them)",
        "sentence the term statistics of 'argkb query --pairs' miscount (a corpus dropped or a "
        "failed load undone since; 'argkb sentences' recounts them)",
    ),
    (
        "claims_without_cluster",
        "argkb cluster",
        "claims with an embedding but no claim cluster",
        "claim with an embedding but no claim cluster",
    ),
    (
        "premises_without_cluster",
        "argkb cluster",
        "premises with an embedding but no premise cluster",
        "premise with an embedding but no premise cluster",
    ),
    (
        "corpora_since_cluster",
        "argkb cluster",
        "corpora loaded since the last cluster run (claim frequencies cf_pro/cf_con may be stale)",
        "corpus loaded since the last cluster run (claim frequencies cf_pro/cf_con may be stale)",
    ),
    (
        "cluster_runs_interrupted",
        "argkb cluster",
        "cluster or SAME_AS runs to redo: interrupted while writing, or a corpus dropped since "
        "(the next run writes them again)",
        "cluster or SAME_AS run to redo: interrupted while writing, or a corpus dropped since "
        "(the next run writes it again)",
    ),
    (
        "pagerank_runs_interrupted",
        "argkb pagerank --warm",
        "PageRank to recompute: a run interrupted while writing scores, or a corpus dropped since",
        "PageRank to recompute: a run interrupted while writing scores, or a corpus dropped since",
    ),
    (
        "units_without_pagerank",
        "argkb pagerank --warm",
        "units without PageRank",
        "unit without PageRank",
    ),
    (
        "arguments_without_relevance",
        "argkb pagerank --warm",
        "arguments without relevance (PageRank is older than the last load)",
        "argument without relevance (PageRank is older than the last load)",
    ),
)
# arguments_without_relevance where no argument has relevance: PageRank has not run (or every
# corpus it ranked was dropped since), so it is not older than anything
_NEVER_RANKED = (
    "arguments without relevance (PageRank has not run on this graph yet)",
    "argument without relevance (PageRank has not run on this graph yet)",
)


def stale_steps(driver: neo4j.Driver, database: str | None = None) -> list[Stale]:
    """One entry per check, in pipeline order (count 0 when up to date); each check scans its
    label once."""
    row = cypher.read(driver, "status/stale", database=database, splitter=SPLITTER)[0]
    out = []
    for what, command, many, one in _STEPS:
        count = int(row[what])
        if what == "arguments_without_relevance" and not row["ranked"]:
            many, one = _NEVER_RANKED
        if what == "corpora_since_cluster" and not row["clustered"]:
            count = 0  # no clusters yet: the units without a cluster say it already
        if what == "corpora_since_sentences" and not row["split"]:
            count = 0  # nothing split yet: the premises without sentences say it already
        out.append(Stale(what, count, command, one if count == 1 else many))
    return out
