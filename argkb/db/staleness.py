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


# (field of status/stale.cypher, command, description)
_STEPS: tuple[tuple[str, str, str], ...] = (
    ("units_without_embedding", "argkb embed", "units without an embedding"),
    (
        "claims_without_negation_embedding",
        "argkb embed",
        "claims without the embedding of their negation (stance alignment)",
    ),
    (
        "premises_without_sentences",
        "argkb sentences",
        "premises not split into sentences (or whose text changed since)",
    ),
    (
        "corpora_since_sentences",
        "argkb sentences",
        "corpora loaded since the last 'argkb sentences' (their premises may be missing from "
        "'argkb query --pairs', which notes them)",
    ),
    (
        "sentences_without_embedding",
        "argkb sentences --embed",
        "sentences without a vector, where others have one ('argkb sentences --embed' ran)",
    ),
    (
        "sentence_statistics_off",
        "argkb sentences",
        "sentences the term statistics of 'argkb query --pairs' miscount (a corpus dropped or a "
        "failed load undone since; 'argkb sentences' recounts them)",
    ),
    ("claims_without_cluster", "argkb cluster", "claims with an embedding but no claim cluster"),
    (
        "premises_without_cluster",
        "argkb cluster",
        "premises with an embedding but no premise cluster",
    ),
    (
        "corpora_since_cluster",
        "argkb cluster",
        "corpora loaded since the last cluster run (claim frequencies cf_pro/cf_con may be stale)",
    ),
    (
        "cluster_runs_interrupted",
        "argkb cluster",
        "cluster or SAME_AS runs to redo: interrupted while writing, or a corpus dropped since "
        "(the next run writes them again)",
    ),
    (
        "pagerank_runs_interrupted",
        "argkb pagerank --warm",
        "PageRank to recompute: a run interrupted while writing scores, or a corpus dropped since",
    ),
    ("units_without_pagerank", "argkb pagerank --warm", "units without PageRank"),
    (
        "arguments_without_relevance",
        "argkb pagerank --warm",
        "arguments without relevance (PageRank is older than the last load)",
    ),
)


def stale_steps(driver: neo4j.Driver, database: str | None = None) -> list[Stale]:
    """One entry per check, in pipeline order (count 0 when up to date); each check scans its
    label once."""
    row = cypher.read(driver, "status/stale", database=database)[0]
    out = []
    for what, command, description in _STEPS:
        count = int(row[what])
        if what == "corpora_since_cluster" and not row["clustered"]:
            count = 0  # no clusters yet: the units without a cluster say it already
        if what == "corpora_since_sentences" and not row["split"]:
            count = 0  # nothing split yet: the premises without sentences say it already
        out.append(Stale(what, count, command, description))
    return out
