"""The Webis SIGIR-19 harness: graded relevance of args.me arguments for biased and neutral queries.

Potthast et al. (SIGIR 2019) judged args.me arguments for 40 topics, 20 issues each asked as a
biased and a neutral query; the dev half in ``../shared/data/webis-sigir19-dev`` has 10 issues,
20 topics and 255 judgements of 203 arguments (:mod:`argkb.loaders.sigir19`). Read as a
retrieval benchmark:

* **queries**: one per topic, qid = the topic id as a number (``"1"``, ``"30"``), text = the
  topic's ``Query`` (``abortion ban``), stance None (the judged stances are towards each
  argument's own debate title, not the query); collection ``sigir19:discussion:``.
  ``topics="biased"`` or ``"neutral"`` keeps one kind of topic only.
* **documents**: every loaded argument of the corpus (the whole collection of 203, not one pool
  per topic), named ``sigir19:<discussion>:<argument>`` (the loader's argument id). Arguments
  whose premises are equal after normalisation are one unit and one document (named by the
  first), graded by the best of them.
* **graded relevance**: gain = ``Relevance - 1``, floored at 0: ``-2`` (spam or not an
  argument) -> 0, 1 (not relevant) -> 0, 2 -> 1, 3 -> 2, 4 (very relevant) -> 3. An argument
  judged only for other topics is 0 for this one. An argument judged for both topics of an
  issue has each topic's own grade.
* **issues**: :func:`topic_issues` gives qid -> issue (the smallest topic id of the issue, as a
  qid), for folds that keep both queries of an issue together; every report lists them and
  :func:`per_issue` averages a system's per-query scores by issue.

Metrics: nDCG@5/10 and P@5/10 (relevant = gain >= 1, i.e. relevance >= 2); no clusters. Also
nDCG'@5/10, nDCG of the *condensed list* (Sakai, SIGIR 2007: the ranking without the documents
not judged for the query). The study judged what its search engine returned for each query's
own words, so the arguments judged only for the issue's other query (same issue, other
phrasing) count 0 in nDCG however relevant they are; this favours a ranker lexically close to
that engine (docs/eval/harness.md). nDCG@10 stays the primary metric.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from argkb.eval.corpus import judged_documents, load_benchmark_corpus
from argkb.eval.harness import (
    Benchmark,
    HarnessOptions,
    HarnessReport,
    run_dataset,
)
from argkb.eval.trec import Qrels, Query, Run

if TYPE_CHECKING:
    import neo4j

    from argkb.eval.scoring import RunScores
    from argkb.loaders.sigir19 import Judgement, SIGIR19Judgements

__all__ = [
    "BASELINES",
    "COLLECTION",
    "PLACES",
    "build_benchmark",
    "corpus_files",
    "gain",
    "load_sigir19",
    "per_issue",
    "run_sigir19",
    "top_places",
    "topic_issues",
]

BASELINES = ("bm25", "cosine", "random")
COLLECTION = "sigir19:discussion:"
DEPTH = 100
TopicKind = Literal["all", "biased", "neutral"]


def gain(judgement: Judgement) -> int:
    """``max(relevance - 1, 0)``: 0 for spam (-2) and not relevant (1), 3 for very relevant."""
    return max(judgement.relevance - 1, 0)


def topic_issues(data: SIGIR19Judgements | str | os.PathLike[str]) -> dict[str, str]:
    """qid -> issue (the qid of the issue's smallest topic id): the two topics of an issue, one
    biased, one neutral, share it (:func:`argkb.loaders.sigir19.topic_issues` pairs them).

    ``data`` is the loaded judgements or the corpus folder."""
    if isinstance(data, str | os.PathLike):
        from argkb.loaders.sigir19 import load_judgements

        data = load_judgements(data)
    return {str(topic): str(issue) for topic, issue in data.issues.items()}


def per_issue(
    scores: RunScores, issues: Mapping[str, str], metric: str = "ndcg@10"
) -> dict[str, float]:
    """The mean of ``metric`` over each issue's evaluated queries, by issue."""
    values: dict[str, list[float]] = defaultdict(list)
    for qid, per_query in scores.per_query.items():
        if metric in per_query:
            values[issues.get(qid, qid)].append(per_query[metric])
    return {issue: sum(v) / len(v) for issue, v in sorted(values.items(), key=_by_number)}


PLACES = ("relevant", "judged_not_relevant", "other_query_of_issue", "unjudged")
"""What a place in a top ten holds (:func:`top_places`)."""


def top_places(
    run: Run, qrels: Qrels, issues: Mapping[str, str], qids: Iterable[str], k: int = 10
) -> dict[str, int]:
    """The top-``k`` places of ``run`` over the queries ``qids``, counted by what the study
    judged each document for the query: relevant (gain >= 1), judged not relevant, judged only
    for the issue's other query (unjudged here, so 0 in nDCG), or unjudged for the issue."""
    counts = dict.fromkeys(PLACES, 0)
    for qid in qids:
        judged = qrels.get(qid, {})
        issue = issues.get(qid, qid)
        other = {doc for q, grades in qrels.items()
                 if q != qid and issues.get(q, q) == issue for doc in grades}  # fmt: skip
        ranking = run.rankings.get(qid)
        for doc in ranking.deduplicated().representatives[:k] if ranking else ():
            if doc in judged:
                counts["relevant" if judged[doc] > 0 else "judged_not_relevant"] += 1
            else:
                counts["other_query_of_issue" if doc in other else "unjudged"] += 1
    return counts


def _by_number(item: tuple[str, Any]) -> tuple[int, str]:
    return (int(item[0]), item[0]) if item[0].isdecimal() else (1 << 62, item[0])


def corpus_files(root: str | os.PathLike[str]) -> list[Path]:
    """The topics and arguments files of the corpus folder; the load's corpus id hashes these."""
    from argkb.loaders.common import topics_and_arguments

    return list(topics_and_arguments([root]))


def load_sigir19(
    driver: neo4j.Driver,
    root: str | os.PathLike[str],
    *,
    database: str | None = None,
    reject_report: Path | None = None,
) -> dict[str, Any]:
    """Load the corpus with argkb's loader (idempotent); rows it rejects are skipped and listed in
    ``reject_report`` (none in the dev half)."""
    from argkb.loaders.sigir19 import read

    files = corpus_files(root)
    return load_benchmark_corpus(driver, "sigir19", files, read(files), database=database,
                                 reject_report=reject_report)  # fmt: skip


def build_benchmark(
    data: SIGIR19Judgements,
    topics: TopicKind = "all",
    *,
    grade: Callable[[Judgement], float] = gain,
) -> Benchmark:
    """Queries, graded qrels, the uid map and the issues (module docstring); ``grade`` grades a
    judgement (the sentence-pair proxy grades quality with it, :mod:`argkb.eval.pairs`)."""
    if topics not in ("all", "biased", "neutral"):
        raise ValueError(f"topics must be 'all', 'biased' or 'neutral', got {topics!r}")
    issues = topic_issues(data)
    queries: list[Query] = []
    qrels: Qrels = {}
    doc_ids: dict[str, dict[str, str]] = {}
    fallback: dict[str, str] = {}
    merged = 0
    for topic_id in sorted(data.topics):
        topic = data.topics[topic_id]
        if topics != "all" and topic.biased != (topics == "biased"):
            continue
        qid = str(topic_id)
        queries.append(Query(qid, " ".join(topic.query.split()), None, COLLECTION))
        own, judged, merged_here = judged_documents(
            data.judgements.get(topic_id, ()),
            text=lambda j: j.premise, aid=lambda j: j.aid, grade=grade, fallback=fallback,
        )  # fmt: skip
        merged += merged_here
        doc_ids[qid] = own
        qrels[qid] = judged
    grades = [g for judged in qrels.values() for g in judged.values()]
    arguments = {j.key for rows in data.judgements.values() for j in rows}
    name = "sigir19" if topics == "all" else f"sigir19-{topics}"
    notes = {
        "dataset": "Webis SIGIR-19 argument search study",
        "topics": topics,
        "collection": COLLECTION,
        "judgements": sum(len(rows) for rows in data.judgements.values()),
        "arguments": len(arguments),
        "judged_documents": len(grades),
        "merged_duplicate_texts": merged,
        "grades": {str(g): grades.count(float(g)) for g in (0, 1, 2, 3)},
        "gain": "max(relevance - 1, 0): -2 spam and 1 not relevant -> 0, 4 very relevant -> 3",
        "issues": {q.qid: issues[q.qid] for q in queries},
        "rejected_rows": [str(r) for r in data.rejected],
        "condensed": "ndcg' leaves out the documents not judged for the query (pooled judgements)",
    }
    return Benchmark(name, queries, qrels, None, doc_ids, fallback, notes, condensed=True)


def run_sigir19(
    driver: neo4j.Driver,
    root: str | os.PathLike[str],
    *,
    database: str | None = None,
    topics: TopicKind = "all",
    options: HarnessOptions | None = None,
) -> HarnessReport:
    """``argkb eval sigir19``: load, embed, rank with every ranker, score, write.

    ``options`` (:class:`~argkb.eval.harness.HarnessOptions`) picks the rankers (default:
    argkb's default ranker and :data:`BASELINES`), output folder, depth (default 100), ...
    """
    from argkb.loaders.sigir19 import load_judgements

    name = "sigir19" if topics == "all" else f"sigir19-{topics}"
    return run_dataset(
        driver,
        name,
        database=database,
        load=lambda report: load_sigir19(driver, root, database=database, reject_report=report),
        build=lambda: build_benchmark(load_judgements(root), topics),
        collection=COLLECTION,
        baselines=BASELINES,
        depth=DEPTH,
        options=options,
    )
