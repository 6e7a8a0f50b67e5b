"""The evaluation harness: the Ranker protocol, a registry of rankers, and scoring runs.

Plugging in a ranker
--------------------
A ranker is any object with a ``name`` and a ``rank(query, k)`` method (:class:`Ranker`)::

    from argkb.eval.harness import Query, Ranking, register_ranker

    class PfIcfRanker:
        name = "pfidf"

        def __init__(self, driver, database, embedder):
            self.driver, self.database, self.embedder = driver, database, embedder

        def rank(self, query: Query, k: int) -> Ranking:
            clusters = ...  # at most k premise clusters, best first, each best premise first
            return Ranking([[u.uid for u in c.premises] for c in clusters],
                           [c.score for c in clusters])

    register_ranker("pfidf", PfIcfRanker)            # or, without importing it here:
    RANKERS["pfidf"] = RankerSpec("mypackage.rankers:PfIcfRanker")

and ``argkb eval argkp --ranker pfidf`` scores it next to the baselines. ``--ranker
package.module:factory`` works without any registration. A factory is called as
``factory(driver, database, embedder)`` and returns one ranker, or a list of rankers whose
scores are averaged (the random baseline: one ranker per seed).

What a ranker receives and returns
----------------------------------
* :class:`Query` ``(qid, text, stance, collection)``: ``stance`` is ``"pro"``, ``"con"`` or None
  (both), relative to ``text``; ``collection`` is an optional ``Source.sid`` prefix naming the
  benchmark's documents (``argkp:dev:``, ``argquality:discussion:``), which a ranker may use to
  restrict its candidates (results outside it simply gain nothing).
* ``k`` is the number of *clusters* wanted (the harness asks for a deep list, 200 by default,
  and cuts at 5 and 10 itself; the clustering metrics use the whole list).
* :class:`Ranking`: clusters of ``Unit.uid`` s, best first; a cluster's first uid is its
  representative. Task B (and nDCG, P@k, mnDCG) score the representatives, Task A the clusters.
  A ranker without clustering returns singletons (``Ranking.from_ids(uids, scores)``).
  A uid repeated later in the ranking is ignored where it repeats.

The harness maps uids to the benchmark's document ids (ArgKP ``arg_id``, Webis-ArgQuality-20
``argquality:<topic>:<discussion>:<argument>``) through the premise texts: a unit's uid is the key
of its normalised text (:func:`argkb.loaders.records.text_key`), so the mapping needs no Neo4j.

Scoring (Dumani et al., ECIR 2020, sec. 6.2; Fromm et al., ECIR 2021, Table 1)
----------------------------------------------------------------------------
Per query and cutoff k in (5, 10), over the *shown list* (the representatives, in cluster order;
for a run without clusters, all documents):

``ndcg@k``   standard nDCG, graded qrels as gains, ``1/log2(i+1)``; ideal = all judged grades.
``p@k``      precision, relevant = grade > 0, denominator k.
``ndcg'@k``  nDCG of the condensed list (the shown documents that are judged for the query,
             Sakai 2007), only where the benchmark's judgements were pooled from other systems
             (SIGIR-19): an unjudged document is left out instead of counting as irrelevant.
``task_b@k`` simplified alpha-nDCG: only a ground-truth cluster's first document gains
             ``rel(cluster)``; the paper's discount (rank 1 and 2 undiscounted).
``mndcg@k``  the same gains with the standard discount (Fromm et al.'s modified nDCG).
``task_a_{avg,min,max}@k``  Task A over the returned clusters (all result lists that pick one
             document per cluster), only for a run with clusters.

Task B, mnDCG and Task A need ground-truth clusters. A cluster's relevance is the largest grade of
its members in the qrels; a relevant document that is in no cluster is a cluster of its own.
With ground-truth clusters and a run that clusters, the harness also compares the run's partition
of the ground-truth documents with the ground truth (``ari``, ``nmi``, ``bcubed_{p,r,f1}``): a
document the run did not return is a singleton, ``coverage`` is the share it returned.

Queries are averaged with equal weight over the topics that have at least one relevant judged
document (others are listed as skipped); a query missing from a run scores 0.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, runtime_checkable

from argkb.errors import ArgKBError, ConfigError, EvaluationError
from argkb.eval import adapters
from argkb.eval.outputs import markdown_tables, scores_json, write_outputs
from argkb.eval.scoring import (
    KS,
    RunScores,
    average_scores,
    score_files,
    score_ranking,
    score_run,
)
from argkb.eval.trec import Clusters, Qrels, Query, Ranking, Run
from argkb.retrieve import baselines

if TYPE_CHECKING:
    import neo4j

    from argkb.embed.model import Embedder

__all__ = [
    "DEFAULT_RANKER",
    "KS",
    "RANKERS",
    "Benchmark",
    "EvalError",
    "EvaluationError",
    "HarnessOptions",
    "Query",
    "Ranker",
    "RankerFactory",
    "RankerSpec",
    "Ranking",
    "RunScores",
    "SystemResult",
    "average_scores",
    "check_rankers",
    "evaluate",
    "make_rankers",
    "markdown_tables",
    "register_ranker",
    "score_files",
    "score_ranking",
    "score_run",
    "write_outputs",
]

logger = logging.getLogger(__name__)

DEFAULT_DEPTH = 200


EvalError = EvaluationError
"""The old name of :class:`argkb.errors.EvaluationError` (one class, two names)."""


# -- the protocol and the registry -------------------------------------------------------------


@runtime_checkable
class Ranker(Protocol):
    """What the harness scores: ``rank(query, k)`` returns at most ``k`` ranked clusters."""

    name: str

    def rank(self, query: Query, k: int) -> Ranking: ...


RankerFactory: TypeAlias = Callable[
    ["neo4j.Driver", "str | None", "Embedder | None"], "Ranker | Sequence[Ranker]"
]
"""``factory(driver, database, embedder)`` -> a ranker, or replicas whose scores are averaged."""


@dataclass(frozen=True)
class RankerSpec:
    """A registered ranker: its factory (callable or ``"module:attribute"``) and needs.

    ``needs_embeddings``: the harness loads the embedding model, stores ``Unit.embedding`` for the
    benchmark's premises and claims (model id in ``Unit.embedding_model``) and passes the embedder;
    otherwise the factory gets ``embedder=None``.
    """

    factory: str | RankerFactory
    needs_embeddings: bool = True
    description: str = ""


RANKERS: dict[str, RankerSpec] = {
    "bm25": RankerSpec(baselines.bm25, False, "Lucene BM25 over premise_text, query stance"),
    "bm25-nostance": RankerSpec(baselines.bm25_nostance, False, "BM25, both stances"),
    "cosine": RankerSpec(baselines.cosine, True, "exact cosine, default model, query stance"),
    "cosine-nostance": RankerSpec(baselines.cosine_nostance, True, "cosine, both stances"),
    "random": RankerSpec(baselines.random_collection, False, "shuffled collection, 10 seeds"),
    "default": RankerSpec(
        adapters.default, True, "argkb query's default (argkb.query.settings.DEFAULT)"
    ),
    "hybrid": RankerSpec(adapters.hybrid, True, "three routes fused by RRF, every claim aligned"),
    "hybrid-aligned": RankerSpec(
        adapters.hybrid_aligned, True, "hybrid, the stance-alignment model's decisions"
    ),
    "hybrid-soft": RankerSpec(
        adapters.hybrid_soft, True, "hybrid, sides weighed by the alignment probability"
    ),
    "pfidf": RankerSpec(
        adapters.pfidf, True, "pf-icf (Dumani 2020), every claim aligned (alignment 'always')"
    ),
    "pfidf-query": RankerSpec(
        adapters.pfidf_query_clusters, True, "pfidf, premise clusters at query time"
    ),
    "coreset": RankerSpec(
        adapters.coreset, True, "biased coreset, learned relevance, alignment 'always'"
    ),
    "coreset-cosine": RankerSpec(adapters.coreset_cosine, True, "biased coreset, cosine relevance"),
    "random-claim": RankerSpec(
        baselines.random_claim, False, "shuffled premises of the query claim, 10 seeds"
    ),
    "random-claim-nostance": RankerSpec(
        baselines.random_claim_nostance, False, "random-claim, both stances"
    ),
}
"""Rankers by name. Add one with :func:`register_ranker` or by assigning a :class:`RankerSpec`."""

DEFAULT_RANKER: str = "default"
"""argkb's default query (:data:`argkb.query.settings.DEFAULT`, the settings ``argkb query`` and
``argkb serve`` answer with): what every dataset command scores next to the baselines when no
``--ranker`` is given (``argkb eval argkp|argquality|dataset|microtexts``)."""


def register_ranker(
    name: str,
    factory: str | RankerFactory,
    *,
    needs_embeddings: bool = True,
    description: str = "",
) -> None:
    """Make ``name`` available to ``--ranker`` (replaces an existing entry of that name)."""
    RANKERS[name] = RankerSpec(factory, needs_embeddings, description)


def ranker_spec(name: str) -> RankerSpec:
    """The spec of a registered name, or of ``module:attribute`` (assumed to need embeddings)."""
    if name in RANKERS:
        return RANKERS[name]
    if ":" in name:
        return RankerSpec(name, True, "")
    known = ", ".join(sorted(RANKERS))
    raise EvaluationError(
        f"unknown ranker {name!r}; known: {known}, or give package.module:factory"
    )


def _resolve(factory: str | RankerFactory) -> RankerFactory:
    if not isinstance(factory, str):
        return factory
    module_name, _, attribute = factory.partition(":")
    try:
        module = importlib.import_module(module_name)
        resolved: RankerFactory = getattr(module, attribute)
    except Exception as err:  # the user's module may fail to import in any way (SyntaxError, ...)
        logger.info("cannot load ranker factory %r", factory, exc_info=err)  # the traceback at -v
        raise EvaluationError(f"cannot load ranker factory {factory!r}: {type(err).__name__}: "
                              f"{err}") from err  # fmt: skip
    if not callable(resolved):
        raise EvaluationError(f"ranker factory {factory!r} is not callable")
    return resolved


def check_rankers(names: Sequence[str]) -> None:
    """Resolve each ranker's factory and check that it takes ``(driver, database, embedder)``,
    so that a typo fails before Neo4j is started and the data loaded, not after."""
    for name in names:
        factory = _resolve(ranker_spec(name).factory)
        try:
            inspect.signature(factory).bind(None, None, None)
        except ValueError:  # some callables (builtins) have no signature to check
            continue
        except TypeError as err:
            why = f"{err} (a factory takes driver, database and embedder)"
            raise EvaluationError(f"ranker factory of {name!r} cannot be called: {why}") from None


def make_rankers(
    name: str, driver: neo4j.Driver, database: str | None, embedder: Embedder | None
) -> list[Ranker]:
    """The ranker(s) that ``name`` stands for; several are replicas to average (random seeds)."""
    from neo4j.exceptions import DriverError, Neo4jError

    check_rankers([name])  # so that a TypeError below is the factory's own
    try:
        made = _resolve(ranker_spec(name).factory)(driver, database, embedder)
    except (ArgKBError, DriverError, Neo4jError):
        raise  # errors the CLI says in one line already
    except Exception as err:
        logger.info("the factory of ranker %r raised", name, exc_info=err)  # the traceback at -v
        raise EvaluationError(f"ranker {name!r}: its factory raised {type(err).__name__}: "
                              f"{err}") from err  # fmt: skip
    if isinstance(made, Ranker):
        rankers = [made]
    elif isinstance(made, Sequence | Iterator):
        rankers = list(made)
    else:
        rankers = []
    if not rankers or not all(isinstance(r, Ranker) for r in rankers):
        raise EvaluationError(f"factory of {name!r} returned no Ranker (needs .name and .rank)")
    return rankers


# -- benchmarks over Neo4j ---------------------------------------------------------------------


@dataclass
class Benchmark:
    """Queries, judgements, and the map from the rankers' unit ids to the judged document ids.

    ``doc_ids[qid][uid]`` names the document of ``uid`` in this query's own pool (it wins when a
    text occurs in several pools); ``fallback_doc_ids[uid]`` any judged document with that text.
    A uid in neither stays as it is (an unjudged document, grade 0).
    """

    name: str
    queries: list[Query]
    qrels: Qrels
    clusters: Clusters | None
    doc_ids: dict[str, dict[str, str]]
    fallback_doc_ids: dict[str, str]
    notes: dict[str, Any] = field(default_factory=dict)
    # judgements pooled from other systems' results: also score nDCG of the condensed lists
    condensed: bool = False

    def to_documents(self, qid: str, ranking: Ranking) -> Ranking:
        """``ranking`` (unit ids) in document ids, without repeats."""
        own = self.doc_ids.get(qid, {})
        mapped = (
            [own.get(uid) or self.fallback_doc_ids.get(uid) or uid for uid in cluster]
            for cluster in ranking.clusters
        )
        return Ranking(mapped, ranking.scores).deduplicated()


@dataclass
class SystemResult:
    """One ranker (or its replicas) on a benchmark: scores, its runs, and timing.

    ``run`` is the first replica's run; ``runs`` holds every replica's (one for most rankers, one
    per seed for the random baselines).
    """

    name: str
    scores: RunScores
    run: Run
    seconds: float
    queries: int
    runs: list[Run] = field(default_factory=list)

    @property
    def ms_per_query(self) -> float:
        return 1000.0 * self.seconds / max(1, self.queries)


def evaluate(
    benchmark: Benchmark,
    systems: Mapping[str, Sequence[Ranker]],
    *,
    depth: int = DEFAULT_DEPTH,
    ks: Sequence[int] = KS,
    on_query: Callable[[int], None] | None = None,
    relevant_from: float | None = None,
) -> list[SystemResult]:
    """Rank every query with every system (replicas averaged) and score the runs.

    ``relevant_from``: the grade from which a document is relevant for P@k (default > 0).
    """
    depth = max(depth, *ks)
    qids = [query.qid for query in benchmark.queries]
    results = []
    for name, replicas in systems.items():
        replica_scores = []
        runs: list[Run] = []
        seconds = 0.0
        for ranker in replicas:
            run = Run(name)
            for query in benchmark.queries:
                started = time.perf_counter()
                ranking = ranker.rank(query, depth)
                seconds += time.perf_counter() - started
                if not isinstance(ranking, Ranking):
                    raise EvaluationError(
                        f"ranker {name!r} returned {type(ranking).__name__}, not Ranking"
                    )
                run.rankings[query.qid] = benchmark.to_documents(query.qid, ranking)
                if on_query:
                    on_query(1)
            run.clustered = any(r.clustered for r in run.rankings.values())
            runs.append(run)
            replica_scores.append(
                score_run(
                    run,
                    benchmark.qrels,
                    benchmark.clusters,
                    qids=qids,
                    ks=ks,
                    clustering=True,
                    relevant_from=relevant_from,
                    condensed=benchmark.condensed,
                )
            )
        if not runs:
            raise EvaluationError(f"ranker {name!r} has no replica to run")
        scores = average_scores(replica_scores)
        scores.tag = name
        results.append(
            SystemResult(name, scores, runs[0], seconds, len(qids) * len(replicas), runs)
        )
    return results


# -- the whole flow ----------------------------------------------------------------------------


@dataclass
class HarnessReport:
    """What ``argkb eval argkp|argquality`` did: the table, results, timings and files."""

    benchmark: str
    table: str
    results: list[SystemResult]
    seconds: dict[str, float]
    files: dict[str, str]
    load: dict[str, Any]
    embedded: int
    qrels: Qrels  # the benchmark's judgements, for reports that read them (not in the JSON)

    def to_json(self) -> dict[str, Any]:
        return {
            "benchmark": self.benchmark,
            "seconds": self.seconds,
            "files": self.files,
            "load": self.load,
            "embedded_units": self.embedded,
            "systems": [
                {**scores_json(r.scores), "seconds": r.seconds, "ms_per_query": r.ms_per_query}
                for r in self.results
            ],
        }


@dataclass(frozen=True)
class HarnessOptions:
    """What every dataset harness (``argkb eval argkp|argquality|dataset|microtexts``) shares.

    Attributes
    ----------
    rankers : sequence of str
        Rankers to score (registry names or ``module:factory``); empty: :data:`DEFAULT_RANKER`.
    baselines : bool
        Also score the dataset's baselines in the same run.
    out : path, optional
        Output folder (default ``./argkb-eval/<benchmark>/``).
    depth : int, optional
        Clusters asked of each ranker per query (default: the dataset's).
    relevant_from : float, optional
        The grade from which a document counts as relevant for P@k (default: grade > 0).
    make_embedder : callable, optional
        Makes the embedding model, called only when a ranker needs vectors.
    on_query, on_embed : callable, optional
        Progress callbacks: queries ranked, units embedded.
    """

    rankers: Sequence[str] = ()
    baselines: bool = True
    out: str | os.PathLike[str] | None = None
    depth: int | None = None
    relevant_from: float | None = None
    make_embedder: Callable[[], Embedder] | None = None
    on_query: Callable[[int], None] | None = None
    on_embed: Callable[[int], None] | None = None

    def ranker_names(self, baselines: Sequence[str]) -> list[str]:
        """The rankers to run, in table order: the chosen ones (default ranker without a
        choice), then ``baselines`` unless switched off; each name once."""
        chosen = list(self.rankers) or [DEFAULT_RANKER]
        return list(dict.fromkeys([*chosen, *(baselines if self.baselines else ())]))


def run_dataset(
    driver: neo4j.Driver,
    name: str,
    *,
    database: str | None = None,
    load: Callable[[Path], Mapping[str, Any]],
    build: Callable[[], Benchmark],
    collection: str | None,
    baselines: Sequence[str],
    depth: int = DEFAULT_DEPTH,
    options: HarnessOptions | None = None,
) -> HarnessReport:
    """A dataset harness: ``load(reject_report)`` it into Neo4j, ``build()`` its benchmark (both
    timed), then :func:`run_benchmark` with the rankers of ``options`` (and ``baselines``).

    Outputs go to ``options.out`` (default ``./argkb-eval/<name>/``), rejected rows to
    ``rejected.jsonl`` there; ``depth`` is the dataset's default depth.
    """
    options = options or HarnessOptions()
    target = Path(options.out) if options.out is not None else Path("argkb-eval") / name
    names = options.ranker_names(baselines)
    check_rankers(names)  # an unknown name or a bad factory fails before the load, not after it
    target.mkdir(parents=True, exist_ok=True)
    logger.info("%s: loading the data (rankers: %s)", name, ", ".join(names))
    started = time.perf_counter()
    loaded = load(target / "rejected.jsonl")
    timings = {"load": time.perf_counter() - started}
    started = time.perf_counter()
    benchmark = build()
    timings["build"] = time.perf_counter() - started
    logger.info("%s: %d queries, load %.1f s", name, len(benchmark.queries), timings["load"])
    return run_benchmark(
        driver,
        benchmark,
        names,
        database=database,
        collection=collection,
        out=target,
        depth=options.depth or depth,
        options=options,
        load=loaded,
        timings=timings,
    )


def _embed(
    driver: neo4j.Driver,
    database: str | None,
    embedder: Embedder,
    collection: str | None,
    progress: Callable[[int], object] | None,
) -> int:
    """Store vectors for the collection's units (every unit of the database without one)."""
    from argkb.embed.store import embed_collection, embed_units

    if collection is None:
        return embed_units(driver, embedder, database, progress=progress).units
    return embed_collection(driver, embedder, collection, database=database, progress=progress)


def run_benchmark(
    driver: neo4j.Driver,
    benchmark: Benchmark,
    ranker_names: Sequence[str],
    *,
    database: str | None = None,
    collection: str | None,
    out: str | os.PathLike[str],
    depth: int = DEFAULT_DEPTH,
    options: HarnessOptions | None = None,
    load: Mapping[str, Any] | None = None,
    timings: Mapping[str, float] | None = None,
) -> HarnessReport:
    """Embed what the rankers need, build them, evaluate, write the outputs.

    ``collection`` (a ``Source.sid`` prefix) names the units to embed; None embeds every unit of
    the database that has no vector (a database holding only the benchmark).
    """
    options = options or HarnessOptions()
    seconds = dict(timings or {})
    names = list(dict.fromkeys(ranker_names))
    if not names:
        raise EvaluationError("no ranker to evaluate")
    specs = {name: ranker_spec(name) for name in names}
    embedder = None
    embedded = 0
    if any(spec.needs_embeddings for spec in specs.values()):
        if options.make_embedder is None:
            raise ConfigError("these rankers need an embedding model, and none was given")
        started = time.perf_counter()
        embedder = options.make_embedder()
        # load the model here, so that its start-up is not charged to the first ranker's query
        getattr(embedder, "dimensions", None)
        embedded = _embed(driver, database, embedder, collection, options.on_embed)
        seconds["embed"] = time.perf_counter() - started
        logger.info("embedded %d units in %.1f s", embedded, seconds["embed"])
    systems = {name: make_rankers(name, driver, database, embedder) for name in names}
    started = time.perf_counter()
    results = evaluate(
        benchmark,
        systems,
        depth=depth,
        on_query=options.on_query,
        relevant_from=options.relevant_from,
    )
    seconds["rank_and_score"] = time.perf_counter() - started
    table = markdown_tables([r.scores for r in results], groups=benchmark.notes.get("issues"))
    extra = {
        "depth": depth,
        "relevant_from": options.relevant_from,
        "seconds": seconds,
        "embedded_units": embedded,
        "load": dict(load or {}),
    }
    files = write_outputs(out, benchmark, results, table=table, extra=extra)
    logger.info("%s: results written to %s", benchmark.name, out)
    return HarnessReport(benchmark.name, table, results, seconds, files, dict(load or {}), embedded,
                         benchmark.qrels)  # fmt: skip
