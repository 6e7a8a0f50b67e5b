"""Scoring rankings and runs: every metric of one query's ranking, runs, replicas, run files.

The metrics and how queries are averaged are described in :mod:`argkb.eval.harness`, which
re-exports everything here; nothing here touches Neo4j.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from argkb.errors import EvaluationError
from argkb.eval.trec import Clusters, Qrels, Ranking, Run

__all__ = [
    "KS",
    "RunScores",
    "average_scores",
    "check_clusters",
    "score_files",
    "score_ranking",
    "score_run",
]

KS: tuple[int, ...] = (5, 10)
logger = logging.getLogger(__name__)
_SHOWN = 5  # ids named in a message


# -- scoring one ranking ----------------------------------------------------------------------


def _truth_clusters(
    judged: Mapping[str, float], clusters: Mapping[str, str]
) -> tuple[dict[str, str], dict[str, float]]:
    """``(doc -> cluster, cluster -> relevance)``: relevance = largest member grade (>= 0)."""
    premise_cluster: dict[str, str] = {}
    relevance: dict[str, float] = {}
    for doc, cluster in clusters.items():
        key = f"g:{cluster}"
        premise_cluster[doc] = key
        relevance[key] = max(relevance.get(key, 0.0), max(0.0, float(judged.get(doc, 0.0))))
    for doc, grade in judged.items():
        if grade > 0 and doc not in premise_cluster:
            premise_cluster[doc] = f"d:{doc}"  # a relevant document in no cluster: its own
            relevance[f"d:{doc}"] = float(grade)
    return premise_cluster, relevance


def score_ranking(
    ranking: Ranking,
    judged: Mapping[str, float],
    clusters: Mapping[str, str] | None = None,
    *,
    ks: Sequence[int] = KS,
    task_a: bool = False,
    clustering: bool = False,
    relevant_from: float | None = None,
    condensed: bool = False,
) -> dict[str, float]:
    """Every metric of one query's ranking (document ids as in ``judged``); see module doc.

    Parameters
    ----------
    ranking : Ranking
        The returned clusters (repeated documents are dropped where they repeat).
    judged : mapping
        This query's qrels, docid -> grade; unjudged documents have grade 0.
    clusters : mapping, optional
        This query's ground-truth clusters, docid -> cluster id; enables Task B, mnDCG, Task A.
    ks : sequence of int
        Cutoffs.
    task_a : bool
        Score Task A (the run returns clusters).
    clustering : bool
        Compare the ranking's partition with ``clusters`` (ARI, NMI, B-cubed, coverage).
    relevant_from : float, optional
        The grade from which a document counts as relevant for P@k (default: any grade > 0).
        The graded metrics (nDCG, Task A/B, mnDCG) keep the grades as gains.
    condensed : bool
        Also score ``ndcg'@k``: nDCG of the *condensed list*, the shown documents that are in
        ``judged`` (Sakai, SIGIR 2007), for judgements that were pooled from other systems.
    """
    from argkb.eval.metrics import (
        modified_ndcg_at_k,
        ndcg_at_k,
        precision_at_k,
        task_a_ndcg_at_k,
        task_b_ndcg_at_k,
    )

    clean = ranking.deduplicated()
    shown = clean.representatives
    grades = [max(0.0, float(judged.get(doc, 0.0))) for doc in shown]
    ideal = [max(0.0, float(g)) for g in judged.values()]
    flags = grades if relevant_from is None else [float(g >= relevant_from) for g in grades]
    scores: dict[str, float] = {}
    for k in ks:
        scores[f"ndcg@{k}"] = ndcg_at_k(grades, ideal, k)
        scores[f"p@{k}"] = precision_at_k(flags, k)
    if condensed:
        judged_grades = [max(0.0, float(judged[doc])) for doc in shown if doc in judged]
        for k in ks:
            scores[f"ndcg'@{k}"] = ndcg_at_k(judged_grades, ideal, k)
    if clusters is None:
        return scores
    premise_cluster, relevance = _truth_clusters(judged, clusters)
    for k in ks:
        scores[f"task_b@{k}"] = task_b_ndcg_at_k(shown, premise_cluster, relevance, k)
        scores[f"mndcg@{k}"] = modified_ndcg_at_k(shown, premise_cluster, relevance, k)
        if task_a:
            result = task_a_ndcg_at_k(clean.clusters, premise_cluster, relevance, k)
            scores[f"task_a_avg@{k}"] = result.average
            scores[f"task_a_min@{k}"] = result.minimum
            scores[f"task_a_max@{k}"] = result.maximum
    if clustering and clusters:
        scores.update(_partition_scores(clean, clusters))
    return scores


def _partition_scores(ranking: Ranking, clusters: Mapping[str, str]) -> dict[str, float]:
    from argkb.eval.metrics import adjusted_rand_index, bcubed, normalized_mutual_information

    position = {doc: i for i, cluster in enumerate(ranking.clusters) for doc in cluster}
    items = list(clusters)
    truth = [clusters[doc] for doc in items]
    # an unreturned document is a singleton: a label no returned cluster has
    predicted: list[object] = [position.get(doc, f"missing:{doc}") for doc in items]
    b3 = bcubed(truth, predicted)
    return {
        "ari": adjusted_rand_index(truth, predicted),
        "nmi": normalized_mutual_information(truth, predicted),
        "bcubed_p": b3.precision,
        "bcubed_r": b3.recall,
        "bcubed_f1": b3.f1,
        "coverage": sum(1 for doc in items if doc in position) / len(items),
    }


# -- scoring runs ------------------------------------------------------------------------------


@dataclass
class RunScores:
    """Scores of one run: per query, and their means over the evaluated queries."""

    tag: str
    clustered: bool
    per_query: dict[str, dict[str, float]]
    mean: dict[str, float]
    skipped: dict[str, str] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    replicas: int = 1
    unknown: list[str] = field(default_factory=list)


def _means(per_query: Mapping[str, Mapping[str, float]]) -> dict[str, float]:
    totals: dict[str, list[float]] = {}
    for scores in per_query.values():
        for metric, value in scores.items():
            totals.setdefault(metric, []).append(value)
    return {metric: sum(values) / len(values) for metric, values in totals.items()}


def score_run(
    run: Run,
    qrels: Qrels,
    clusters: Clusters | None = None,
    *,
    qids: Iterable[str] | None = None,
    ks: Sequence[int] = KS,
    clustering: bool = False,
    relevant_from: float | None = None,
    condensed: bool = False,
) -> RunScores:
    """Score ``run`` on the queries ``qids`` (default: every query in the qrels).

    ``relevant_from``: the grade from which a document is relevant for P@k (default > 0);
    ``condensed``: also nDCG of the condensed lists (:func:`score_ranking`).
    A query without a relevant judged document is skipped; a query the run lacks scores 0; run
    queries that are not in ``qids`` are ignored (listed in ``unknown``).
    Task A is scored when ``run.clustered`` and ground-truth clusters are given; the partition
    metrics additionally need ``clustering``.
    """
    wanted = list(qids) if qids is not None else list(qrels)
    per_query: dict[str, dict[str, float]] = {}
    skipped: dict[str, str] = {}
    missing: list[str] = []
    for qid in wanted:
        judged = qrels.get(qid, {})
        if not any(grade > 0 for grade in judged.values()):
            skipped[qid] = "no relevant document in the qrels"
            continue
        ranking = run.rankings.get(qid)
        if ranking is None:
            missing.append(qid)
            ranking = Ranking(())
        truth = None if clusters is None else clusters.get(qid, {})
        per_query[qid] = score_ranking(
            ranking,
            judged,
            truth,
            ks=ks,
            task_a=run.clustered,
            clustering=clustering and run.clustered,
            relevant_from=relevant_from,
            condensed=condensed,
        )
    unknown = sorted(set(run.rankings) - set(wanted))
    return RunScores(
        run.tag, run.clustered, per_query, _means(per_query), skipped, missing, 1, unknown
    )


def average_scores(replicas: Sequence[RunScores]) -> RunScores:
    """Average replicated runs (random seeds) per query and metric."""
    if not replicas:
        raise EvaluationError("nothing to average")
    first = replicas[0]
    per_query: dict[str, dict[str, float]] = {}
    for qid, scores in first.per_query.items():
        per_query[qid] = {
            metric: sum(r.per_query[qid][metric] for r in replicas) / len(replicas)
            for metric in scores
        }
    return RunScores(
        first.tag,
        first.clustered,
        per_query,
        _means(per_query),
        first.skipped,
        first.missing,
        len(replicas),
        first.unknown,
    )


def _some(ids: Sequence[str]) -> str:
    return ", ".join(ids[:_SHOWN]) + (", ..." if len(ids) > _SHOWN else "") if ids else "none"


def check_clusters(
    path: str | Path, clusters: Clusters, qids: Collection[str], qrels: Qrels
) -> None:
    """Refuse ground-truth clusters that share no query with the topics (as qrels are refused),
    and warn about a cluster query not in the topics or a clustered document not judged for its
    query: such a typo changed Task A/B and mnDCG without a word."""
    asked = set(qids)
    if not asked & set(clusters):
        raise EvaluationError(f"{path}: no cluster is for a query of the topics (cluster query "
                              f"ids: {_some(sorted(clusters))})")  # fmt: skip
    strangers = sorted(set(clusters) - asked)
    if strangers:
        logger.warning("%s: %d cluster query id(s) not in the topics, ignored: %s",
                       path, len(strangers), _some(strangers))  # fmt: skip
    unjudged = [f"{qid} {doc}" for qid, docs in clusters.items() if qid in asked
                for doc in docs if doc not in qrels.get(qid, {})]  # fmt: skip
    if unjudged:
        logger.warning("%s: %d clustered document(s) not judged for their query, so they gain "
                       "nothing: %s", path, len(unjudged), _some(unjudged))  # fmt: skip


def score_files(
    topics: str | Path,
    qrels: str | Path,
    runs: Sequence[str | Path],
    clusters: str | Path | None = None,
    *,
    ks: Sequence[int] = KS,
    relevant_from: float | None = None,
) -> list[RunScores]:
    """``argkb eval run``: score TREC/JSON run files against qrels (and ground-truth clusters).

    Runs that share a tag are replicas (the random baselines' seeds, written by the dataset
    harnesses as ``runs/<system>.seed<i>.trec``): they are scored each and averaged into one
    result, as the harness does, in the order their tags first appear.
    """
    from argkb.eval import trec

    queries = trec.read_topics(topics)
    judged = trec.read_qrels(qrels)
    truth = trec.read_clusters(clusters) if clusters is not None else None
    qids = [query.qid for query in queries]
    if not set(qids) & set(judged):
        raise EvaluationError(
            f"{qrels}: no judgement is for a query of {topics} "
            f"(qrels query ids: {', '.join(sorted(judged)[:5]) or 'none'}; "
            f"topic ids: {', '.join(qids[:5]) or 'none'})"
        )
    if truth is not None:
        check_clusters(str(clusters), truth, qids, judged)
    by_tag: dict[str, list[RunScores]] = {}
    for path in runs:
        run = trec.read_run(path)
        if not set(qids) & set(run.rankings):  # another benchmark's run would score 0
            raise EvaluationError(
                f"{path}: no query of the run is in {topics} (run query ids: "
                f"{_some(sorted(run.rankings))}; topic ids: {_some(qids)})"
            )
        by_tag.setdefault(run.tag, []).append(
            score_run(
                run, judged, truth, qids=qids, ks=ks, clustering=True, relevant_from=relevant_from
            )
        )
    return [
        replicas[0] if len(replicas) == 1 else average_scores(replicas)
        for replicas in by_tag.values()
    ]
