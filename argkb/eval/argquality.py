"""The Webis-ArgQuality-20 harness: graded relevance of args.me premises for 20 topics.

Gienapp et al. (ACL 2020) judged 1,610 premises for 20 topics; relevance is a z-normalised
Bradley-Terry score (mean 0, sd 1 over the 1,271 premises judged to be arguments; -4.0 for the
339 that are not). Read as a retrieval benchmark:

* **queries**: one per topic, qid = the topic id, stance None (the corpus's stances are towards
  each premise's own args.me debate, not the topic); text = the topic's **long query** by default
  (``Should the Federal Minimum Wage Be Increased?``: the question form used as the Touche 2020
  topic title, closest to the claims argkb retrieves by, and with more terms for BM25);
  ``query="short"`` uses the short one (``Minimum Wage``). Collection ``argquality:discussion:``.
  Caveat: argkb's loader stores every premise under its topic's long query as the conclusion, so a
  claim-based ranker with the long query meets the judged premises' own claim exactly
  (``random-claim`` shows what that alone is worth).
* **documents**: every loaded premise (all 1,610, arguments or not); a judged premise is named
  ``argquality:<topic>:<discussion>:<argument>`` (the corpus's key). Premises of one topic whose
  texts are equal after normalisation are one unit and one document (named by the first), graded
  by the best of them.
* **graded relevance** from the z-score ``z``: 0 if not an argument or ``z < -0.5``; 1 if
  ``-0.5 <= z < 0.5``; 2 if ``z >= 0.5`` (three levels, like Dumani et al.'s not / relevant / very
  relevant; over all arguments 25 % / 44 % / 31 %). Premises judged only for other topics are 0.

Metrics: nDCG@5/10 and P@5/10 (relevant = grade >= 1); there are no ground-truth clusters.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from argkb.eval.corpus import judged_documents, load_benchmark_corpus
from argkb.eval.harness import (
    Benchmark,
    HarnessOptions,
    HarnessReport,
    run_dataset,
)
from argkb.eval.trec import Qrels, Query

if TYPE_CHECKING:
    import neo4j

    from argkb.loaders.argquality import ArgQualityJudgements, JudgedPremise

__all__ = [
    "BASELINES",
    "COLLECTION",
    "build_benchmark",
    "corpus_files",
    "load_argquality",
    "read_judgements",
    "relevance_grade",
    "run_argquality",
]

BASELINES = ("bm25", "cosine", "random", "random-claim")
COLLECTION = "argquality:discussion:"
DEPTH = 100
QueryKind = Literal["long", "short"]


def relevance_grade(premise: JudgedPremise) -> int:
    """0, 1 or 2 from the z-normalised relevance (bins at -0.5 and +0.5; module docstring)."""
    if not premise.is_argument or premise.relevance < -0.5:
        return 0
    return 1 if premise.relevance < 0.5 else 2


def corpus_files(root: str | os.PathLike[str]) -> list[Path]:
    """The topics and arguments files of the corpus folder; the load's corpus id hashes these."""
    from argkb.errors import LoadError

    files = []
    for suffix in ("topics.csv", "arguments.csv"):
        found = sorted(Path(root).glob(f"*{suffix}"))
        if len(found) != 1:
            names = ", ".join(p.name for p in found) or "none"
            raise LoadError(str(root), "<file>", f"need exactly one *{suffix}; found {names}")
        files.extend(found)
    return files


def read_judgements(root: str | os.PathLike[str]) -> ArgQualityJudgements:
    """The corpus files found and read without Neo4j: the commands run this before they
    connect, so a wrong folder fails before the server is started or the graph changed."""
    from argkb.loaders.argquality import load_judgements

    corpus_files(root)
    return load_judgements(root)


def load_argquality(
    driver: neo4j.Driver,
    root: str | os.PathLike[str],
    *,
    database: str | None = None,
    reject_report: Path | None = None,
) -> dict[str, Any]:
    """Load the corpus with argkb's loader (idempotent).

    Rows the loader rejects are skipped and listed in ``reject_report`` (none in the released
    file; its one row whose premise is the topic's long query is left out by the loader).
    """
    from argkb.loaders.argquality import read

    files = corpus_files(root)
    return load_benchmark_corpus(driver, "argquality", files, read(files), database=database,
                                 reject_report=reject_report)  # fmt: skip


def build_benchmark(
    data: ArgQualityJudgements,
    query: QueryKind = "long",
    *,
    grade: Callable[[JudgedPremise], float] = relevance_grade,
) -> Benchmark:
    """Queries, graded qrels and the uid map (module docstring); ``grade`` grades a judged
    premise (the sentence-pair proxy grades quality with it, :mod:`argkb.eval.pairs`)."""
    if query not in ("long", "short"):
        raise ValueError(f"query must be 'long' or 'short', got {query!r}")
    queries: list[Query] = []
    qrels: Qrels = {}
    doc_ids: dict[str, dict[str, str]] = {}
    fallback: dict[str, str] = {}
    merged = 0
    for topic_id in sorted(data.topics):
        topic = data.topics[topic_id]
        qid = str(topic_id)
        text = topic.long_query if query == "long" else topic.short_query
        queries.append(Query(qid, " ".join(text.split()), None, COLLECTION))
        own, judged, merged_here = judged_documents(
            data.premises.get(topic_id, ()),
            text=lambda p: p.premise, aid=lambda p: p.aid, grade=grade, fallback=fallback,
        )  # fmt: skip
        merged += merged_here
        doc_ids[qid] = own
        qrels[qid] = judged
    grades = [g for judged in qrels.values() for g in judged.values()]
    notes = {
        "dataset": "Webis-ArgQuality-20",
        "query": query,
        "collection": COLLECTION,
        "premises": sum(len(p) for p in data.premises.values()),
        "documents": len(grades),
        "merged_duplicate_texts": merged,
        "grades": {str(g): grades.count(float(g)) for g in (0, 1, 2)},
        "relevance_bins": "0: not an argument or z < -0.5; 1: -0.5 <= z < 0.5; 2: z >= 0.5",
        "rejected_rows": [str(r) for r in data.rejected],
    }
    return Benchmark(f"argquality-{query}", queries, qrels, None, doc_ids, fallback, notes)


def run_argquality(
    driver: neo4j.Driver,
    root: str | os.PathLike[str],
    *,
    database: str | None = None,
    query: QueryKind = "long",
    options: HarnessOptions | None = None,
) -> HarnessReport:
    """``argkb eval argquality``: load, embed, rank with every ranker, score, write.

    ``options`` (:class:`~argkb.eval.harness.HarnessOptions`) picks the rankers (default:
    argkb's default ranker and :data:`BASELINES`), output folder, depth (default 100), ...
    """
    from argkb.loaders.argquality import load_judgements

    return run_dataset(
        driver,
        f"argquality-{query}",
        database=database,
        load=lambda report: load_argquality(driver, root, database=database, reject_report=report),
        build=lambda: build_benchmark(load_judgements(root), query),
        collection=COLLECTION,
        baselines=BASELINES,
        depth=DEPTH,
        options=options,
    )
