"""A proxy evaluation of sentence-pair answers, without Touché's judged pairs.

Touché 2022 judged the pairs its participants returned; those judgements are not available here.
The proxy scores a pair by what is judged about the argument it comes from, on
Webis-ArgQuality-20 and the SIGIR-19 dev half (both args.me premises with graded relevance and
quality; :mod:`argkb.eval.argquality`, :mod:`argkb.eval.sigir19`):

* **relevance**: the source premise's graded relevance for the query, as the argument-level
  benchmark grades it (ArgQuality 0-2, SIGIR-19 0-3); 0 for a premise judged only for other
  topics. Both sentences of a pair come from one premise (the pipeline pairs within a premise),
  so the issue's "0 if the two sentences come from different arguments of which one is not
  relevant" never applies.
* **quality**: the source's judged quality: ArgQuality's combined z-score binned as its relevance
  (0 not an argument or below -0.5, 1 up to 0.5, 2 above), SIGIR-19's mean of logical,
  rhetorical and dialectical quality minus 1, floored at 0 (0-3).
* **a source counts once**: a second pair from a premise already shown gains nothing. A reader
  learns no new argument from it, and without the rule a run that showed one very relevant post
  ten times would beat the ideal list (nDCG above 1). The pipeline's ``distinct`` part avoids
  such repeats; the ablation shows what that is worth on its own.
* nDCG@5/@10 for both, against the ideal list of the query's judged documents (each once);
  **coherence**: the share of returned pairs whose two sentences are adjacent in their premise
  (a single sentence is not); **sources@10**: distinct premises in the first ten pairs.

The paper's own numbers (.73 nDCG@10 on its participants' pairs, judged by the authors) are not
comparable with these: other judgements, other units, another collection.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from argkb.eval.metrics.ranking import ndcg_at_k

if TYPE_CHECKING:
    import neo4j

    from argkb.eval.harness import Benchmark
    from argkb.loaders.argquality import ArgQualityJudgements, JudgedPremise
    from argkb.loaders.sigir19 import Judgement, SIGIR19Judgements
    from argkb.sentences.pipeline import PairSettings, ScoredPair

__all__ = [
    "METRICS",
    "PairBenchmark",
    "PairsReport",
    "argquality_pairs",
    "load_benchmark",
    "read_proxy",
    "run_pairs",
    "score_pairs",
    "sigir19_pairs",
]

METRICS = ("rel@5", "rel@10", "quality@5", "quality@10", "coherence", "sources@10")


@dataclass(frozen=True)
class PairBenchmark:
    """The argument-level benchmark (queries, relevance, the uid map) and quality grades."""

    benchmark: Benchmark
    quality: Mapping[str, Mapping[str, float]]  # qid -> document -> quality gain

    @property
    def name(self) -> str:
        return f"pairs-{self.benchmark.name}"

    def document(self, qid: str, unit: str) -> str:
        own = self.benchmark.doc_ids.get(qid, {})
        return own.get(unit) or self.benchmark.fallback_doc_ids.get(unit) or unit


def argquality_quality(premise: JudgedPremise) -> float:
    """0, 1 or 2 from the combined quality z-score, binned as the relevance."""
    if not premise.is_argument or premise.combined < -0.5:
        return 0.0
    return 1.0 if premise.combined < 0.5 else 2.0


def sigir19_quality(judgement: Judgement) -> float:
    """``max(mean(logical, rhetorical, dialectical) - 1, 0)``; 0 for spam and non-arguments."""
    if judgement.relevance < 0 or not judgement.is_argument:
        return 0.0
    mean = (judgement.logical + judgement.rhetorical + judgement.dialectical) / 3.0
    return max(mean - 1.0, 0.0)


def argquality_pairs(data: ArgQualityJudgements, query: str = "long") -> PairBenchmark:
    """The argument-level benchmark, and its documents graded by quality the same way."""
    from argkb.eval.argquality import build_benchmark

    benchmark = build_benchmark(data, query)  # type: ignore[arg-type]
    quality = build_benchmark(data, query, grade=argquality_quality)  # type: ignore[arg-type]
    return PairBenchmark(benchmark, quality.qrels)


def sigir19_pairs(data: SIGIR19Judgements, topics: str = "all") -> PairBenchmark:
    """The argument-level benchmark, and its documents graded by quality the same way."""
    from argkb.eval.sigir19 import build_benchmark

    benchmark = build_benchmark(data, topics)  # type: ignore[arg-type]
    quality = build_benchmark(data, topics, grade=sigir19_quality)  # type: ignore[arg-type]
    return PairBenchmark(benchmark, quality.qrels)


def score_pairs(data: PairBenchmark, qid: str, pairs: Sequence[ScoredPair]) -> dict[str, float]:
    """The proxy's measures (:data:`METRICS`) of one query's ranked pairs (module docstring)."""
    relevance = data.benchmark.qrels.get(qid, {})
    quality = data.quality.get(qid, {})
    seen: set[str] = set()
    rel_gains: list[float] = []
    quality_gains: list[float] = []
    for scored in pairs:
        doc = data.document(qid, scored.pair.top.premise)
        fresh = doc not in seen
        seen.add(doc)
        rel_gains.append(relevance.get(doc, 0.0) if fresh else 0.0)
        quality_gains.append(quality.get(doc, 0.0) if fresh else 0.0)
    adjacent = [p.pair.second is not None and p.pair.second.position == p.pair.first.position + 1
                for p in pairs]  # fmt: skip
    scores = {f"rel@{k}": ndcg_at_k(rel_gains, relevance.values(), k) for k in (5, 10)}
    scores |= {f"quality@{k}": ndcg_at_k(quality_gains, quality.values(), k) for k in (5, 10)}
    scores["coherence"] = sum(adjacent) / len(adjacent) if adjacent else 0.0
    scores["sources@10"] = float(len({p.pair.top.premise for p in pairs[:10]}))
    return scores


def evaluate_pairs(
    data: PairBenchmark,
    systems: Mapping[str, Callable[[str], Sequence[ScoredPair]]],
    *,
    on_query: Callable[[int], object] | None = None,
) -> dict[str, dict[str, dict[str, float]]]:
    """system -> qid -> measures, for the queries with a relevant judged document; each system
    is a function from the query text to its ranked pairs."""
    queries = [q for q in data.benchmark.queries
               if any(g > 0 for g in data.benchmark.qrels.get(q.qid, {}).values())]  # fmt: skip
    results: dict[str, dict[str, dict[str, float]]] = {name: {} for name in systems}
    for query in queries:
        for name, system in systems.items():
            results[name][query.qid] = score_pairs(data, query.qid, system(query.text))
        if on_query is not None:
            on_query(1)
    return results


def means(per_query: Mapping[str, Mapping[str, float]]) -> dict[str, Any]:
    """The mean of each measure over the queries."""
    if not per_query:
        return dict.fromkeys(METRICS, 0.0)
    return {m: sum(q[m] for q in per_query.values()) / len(per_query) for m in METRICS}


# -- the whole run: argkb eval pairs ------------------------------------------------------------


def systems() -> dict[str, PairSettings]:
    """What ``argkb eval pairs`` scores: the shipped pipeline and the two baselines."""
    from argkb.sentences.pipeline import BASELINE, DEFAULT

    return {"pipeline": DEFAULT, "bm25-next": BASELINE,
            "dirichlet-next": replace(BASELINE, model="dirichlet")}  # fmt: skip


def read_proxy(benchmark: str, root: str | os.PathLike[str], query: str = "long") -> PairBenchmark:
    """The proxy of ``benchmark``'s judgement files, read without Neo4j: ``argkb eval pairs``
    runs this before it connects, so a wrong folder fails before the server is started."""
    if benchmark == "argquality":
        from argkb.eval.argquality import read_judgements

        return argquality_pairs(read_judgements(root), query)
    if benchmark == "sigir19":
        from argkb.loaders.sigir19 import load_judgements

        return sigir19_pairs(load_judgements(root))
    raise ValueError(f"unknown benchmark {benchmark!r}: use argquality or sigir19")


def load_benchmark(
    driver: neo4j.Driver,
    benchmark: str,
    root: str | os.PathLike[str],
    embedder: Any,
    *,
    query: str = "long",
    database: str | None = None,
    progress: Any = None,
) -> PairBenchmark:
    """Load the benchmark with argkb's loader (idempotent), embed its units, split the premises
    into sentences (every pending premise of the database); its proxy. ``benchmark``:
    ``argquality`` or ``sigir19``. The sentence search has no collection filter, so other
    corpora in the database compete with the benchmark's premises (and gain nothing): score on a
    database that holds only the benchmark."""
    from argkb.embed.store import embed_collection
    from argkb.pipeline import split_sentences
    from argkb.progress import SILENT

    proxy = read_proxy(benchmark, root, query)
    if benchmark == "argquality":
        from argkb.eval.argquality import COLLECTION, load_argquality

        load_argquality(driver, root, database=database)
    else:
        from argkb.eval.sigir19 import COLLECTION, load_sigir19

        load_sigir19(driver, root, database=database)
    embed_collection(driver, embedder, COLLECTION, database=database)
    split_sentences(driver, database, progress=progress or SILENT)
    return proxy


@dataclass
class PairsReport:
    """What ``argkb eval pairs`` measured: per system the mean of each measure and per query,
    and each system against ``bm25-next`` on rel@10 (:class:`argkb.eval.compare.Paired`)."""

    benchmark: str
    queries: int
    means: dict[str, dict[str, float]]
    per_query: dict[str, dict[str, dict[str, float]]]
    versus_baseline: dict[str, dict[str, Any]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    def table(self) -> str:
        versus_header = "rel@10 vs bm25-next: W/T/L, diff [95% CI]"
        rows = ["| system | " + " | ".join(METRICS) + f" | {versus_header} |",
                "|---|" + "---:|" * len(METRICS) + "---|"]  # fmt: skip
        for name, values in self.means.items():
            p = self.versus_baseline.get(name)
            versus = (f"{p['wins']}/{p['ties']}/{p['losses']}, {p['mean_difference']:+.3f} "
                      f"[{p['low']:+.3f}, {p['high']:+.3f}]") if p else "(baseline)"  # fmt: skip
            rows.append(f"| {name} | " + " | ".join(f"{values[m]:.4f}" for m in METRICS)
                        + f" | {versus} |")  # fmt: skip
        return "\n".join(rows)


def run_pairs(
    driver: neo4j.Driver,
    benchmark: str,
    root: str | os.PathLike[str],
    embedder: Any,
    *,
    query: str = "long",
    k: int = 10,
    database: str | None = None,
    progress: Any = None,
    on_query: Callable[[int], object] | None = None,
) -> PairsReport:
    """``argkb eval pairs``: load, embed and split the benchmark, then score the shipped pipeline
    and the baselines on the proxy (module docstring), in one run."""
    from dataclasses import asdict

    from argkb.eval.compare import paired
    from argkb.sentences.pipeline import pipeline_pairs

    started = time.perf_counter()
    data = load_benchmark(driver, benchmark, root, embedder, query=query, database=database,
                          progress=progress)  # fmt: skip
    seconds = {"prepare": time.perf_counter() - started}
    chosen = systems()

    def system(settings: PairSettings) -> Callable[[str], Sequence[ScoredPair]]:
        return lambda text: pipeline_pairs(driver, text, settings, k=k, embedder=embedder,
                                           database=database)  # fmt: skip

    started = time.perf_counter()
    per_query = evaluate_pairs(data, {n: system(s) for n, s in chosen.items()}, on_query=on_query)
    seconds["rank_and_score"] = time.perf_counter() - started
    versus = {name: asdict(paired(name, "bm25-next", per_query, "rel@10"))
              for name in chosen if name != "bm25-next" and per_query[name]}  # fmt: skip
    return PairsReport(
        data.name,
        len(per_query["pipeline"]),
        {n: means(q) for n, q in per_query.items()},
        per_query,
        versus,
        seconds,
    )
