"""What the evaluation harness writes: the markdown tables and the files of a run.

``results.md`` (one row per system, and the partition table where a system clusters),
``results.json``, and the inputs (``topics.tsv``, ``qrels.txt``, ``clusters.txt``) and runs
(``runs/<system>.trec`` and ``.json``) that let ``argkb eval run`` score any other run on the
same benchmark (:mod:`argkb.eval.harness` computes the scores).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argkb.eval.scoring import KS, RunScores
from argkb.eval.trec import Run
from argkb.jsonout import to_json

if TYPE_CHECKING:
    from argkb.eval.harness import Benchmark, SystemResult


_HEADERS = {
    "ndcg": "nDCG",
    "ndcg'": "nDCG'",
    "p": "P",
    "task_b": "TaskB",
    "mndcg": "mnDCG",
    "task_a_avg": "TaskA-avg",
    "task_a_min": "TaskA-min",
    "task_a_max": "TaskA-max",
}
_PARTITION = ("ari", "nmi", "bcubed_p", "bcubed_r", "bcubed_f1", "coverage")
_PARTITION_HEADERS = ("ARI", "NMI", "B3-P", "B3-R", "B3-F1", "coverage")


def ranking_metrics(ks: Sequence[int] = KS) -> list[str]:
    """Metric names in table order."""
    names: list[str] = []
    for family in ("ndcg", "ndcg'", "p", "task_b", "mndcg"):
        names.extend(f"{family}@{k}" for k in ks)
    for k in ks:  # Task A as in Table 2 of Dumani et al.: average, minimum, maximum per cutoff
        names.extend(f"task_a_{aggregate}@{k}" for aggregate in ("avg", "min", "max"))
    return names


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return "\n".join(lines)


def markdown_tables(
    results: Sequence[RunScores],
    *,
    ks: Sequence[int] = KS,
    groups: Mapping[str, str] | None = None,
) -> str:
    """The ranking table (one row per run) and, when a run clusters, the partition table.

    A metric no run has is left out; a run without a metric others have shows ``-``.
    """
    present = [m for m in ranking_metrics(ks) if any(m in r.mean for r in results)]
    header = ["system", *(f"{_HEADERS[m.split('@')[0]]}@{m.split('@')[1]}" for m in present)]
    header.append("queries")
    rows = []
    for r in results:
        cells = [r.tag + (f" (x{r.replicas})" if r.replicas > 1 else "")]
        cells.extend(f"{r.mean[m]:.4f}" if m in r.mean else "-" for m in present)
        cells.append(str(len(r.per_query)))
        rows.append(cells)
    text = _table(header, rows)
    partitioned = [r for r in results if "ari" in r.mean]
    if partitioned:
        part_rows = [[r.tag, *(f"{r.mean[m]:.4f}" for m in _PARTITION)] for r in partitioned]
        text += "\n\nClustering of each query's ground-truth documents:\n\n"
        text += _table(["system", *_PARTITION_HEADERS], part_rows)
    paired = paired_table(paired_rows(results, groups))
    if paired:
        text += "\n\n" + paired
    return text


BASELINES = ("bm25", "cosine")
"""The baselines every other system is compared with, query by query, where a run scored them."""


def primary_metric(results: Sequence[RunScores]) -> str | None:
    """The metric a benchmark is judged on: Task B alpha-nDCG@10 where it has ground-truth
    clusters (ArgKP), else nDCG@10; None when no run has either."""
    for metric in ("task_b@10", "ndcg@10"):
        if any(metric in r.mean for r in results):
            return metric
    return None


def paired_rows(
    results: Sequence[RunScores], groups: Mapping[str, str] | None = None
) -> list[dict[str, Any]]:
    """Every system that is not a baseline against each baseline of :data:`BASELINES` on the
    :func:`primary_metric`: queries won, tied and lost, the mean difference and its 95 %
    bootstrap interval (:func:`argkb.eval.compare.paired`; ``groups``, qid -> group, resamples
    groups of queries, as SIGIR-19's issues)."""
    from argkb.eval.compare import paired

    metric = primary_metric(results)
    by_tag = {r.tag: r for r in results}
    baselines = [b for b in BASELINES if b in by_tag and by_tag[b].per_query]
    if metric is None or not baselines:
        return []
    per_query = {r.tag: r.per_query for r in results}
    rows = []
    for r in results:
        if r.tag.startswith(("bm25", "cosine", "random")) or not r.per_query:
            continue
        if not all(metric in scores for scores in r.per_query.values()):
            continue
        for baseline in baselines:
            p = paired(r.tag, baseline, per_query, metric, groups=groups)
            rows.append({"system": r.tag, "baseline": baseline, "metric": metric,
                         "queries": p.queries, "wins": p.wins, "ties": p.ties,
                         "losses": p.losses, "mean_difference": p.mean_difference,
                         "low": p.low, "high": p.high,
                         "resampled": "groups" if groups else "queries"})  # fmt: skip
    return rows


def paired_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """:func:`paired_rows` as a markdown table (empty text without rows)."""
    if not rows:
        return ""
    body = [
        [row["system"], row["baseline"], f"{row['wins']}/{row['ties']}/{row['losses']}",
         f"{row['mean_difference']:+.4f}", f"[{row['low']:+.4f}, {row['high']:+.4f}]"]
        for row in rows
    ]  # fmt: skip
    unit = "issues" if rows[0].get("resampled") == "groups" else "queries"
    header = ["system", "baseline", "W/T/L", f"mean diff ({rows[0]['metric']})",
              f"95% interval (resampling {unit})"]  # fmt: skip
    return (
        "Per query against the baselines (wins/ties/losses; percentile bootstrap, 10,000 "
        "draws):\n\n" + _table(header, body)
    )


def scores_json(result: RunScores) -> dict[str, Any]:
    return {
        "tag": result.tag,
        "clustered": result.clustered,
        "replicas": result.replicas,
        "queries": len(result.per_query),
        "mean": result.mean,
        "per_query": result.per_query,
        "skipped": result.skipped,
        "missing": result.missing,
        "unknown": result.unknown,
    }


def write_outputs(
    out: str | os.PathLike[str],
    benchmark: Benchmark,
    results: Sequence[SystemResult],
    *,
    table: str,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, str]:
    """Write inputs, runs, ``results.json`` and ``results.md`` under ``out``; returns the paths.

    ``topics.tsv``, ``qrels.txt`` and ``clusters.txt`` let ``argkb eval run`` score any other run
    on the same benchmark; ``runs/<system>.trec`` and ``.json`` hold each system's run in document
    ids. A replicated system (the random baselines) writes every replica,
    ``runs/<system>.seed<i>.trec`` and ``.json``, all tagged ``<system>``: ``argkb eval run``
    averages runs that share a tag, so scoring them all reproduces the system's row.
    """
    from argkb.eval import trec

    root = Path(out)
    (root / "runs").mkdir(parents=True, exist_ok=True)
    paths = {
        "topics": root / "topics.tsv",
        "qrels": root / "qrels.txt",
        "results_json": root / "results.json",
        "results_md": root / "results.md",
    }
    trec.write_topics(paths["topics"], benchmark.queries)
    trec.write_qrels(paths["qrels"], benchmark.qrels)
    if benchmark.clusters is not None:
        paths["clusters"] = root / "clusters.txt"
        trec.write_clusters(paths["clusters"], benchmark.clusters)
    for result in results:
        stem = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in result.name)
        replicas = result.runs or [result.run]
        for i, replica in enumerate(replicas):
            run = Run(stem, replica.rankings, replica.clustered)
            name = stem if len(replicas) == 1 else f"{stem}.seed{i}"
            trec.write_run(root / "runs" / f"{name}.trec", run)
            trec.write_run(root / "runs" / f"{name}.json", run)
    payload = {
        "benchmark": benchmark.name,
        "notes": benchmark.notes,
        **(extra or {}),
        "paired": paired_rows([r.scores for r in results], benchmark.notes.get("issues")),
        "systems": [
            {
                **scores_json(r.scores),
                "seconds": r.seconds,
                "ms_per_query": r.ms_per_query,
            }
            for r in results
        ],
    }
    paths["results_json"].write_text(to_json(payload, indent=1) + "\n", encoding="utf-8")
    paths["results_md"].write_text(table + "\n", encoding="utf-8")
    return {key: str(path) for key, path in paths.items()}
