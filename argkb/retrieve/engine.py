"""Answer a query claim with ranked, deduplicated pro and con premise clusters.

The pipeline (Dumani et al., ECIR 2020, Sec. 4-5; Fromm et al., ECIR 2021, Sec. 3):

1. embed the query; retrieve similar claims with P(c|q) (:mod:`argkb.retrieve.claims`);
2. widen each retrieved claim to its claim cluster gamma (``argkb cluster``); P(gamma|q) is the sum
   of its retrieved claims' P(c|q), shared equally by the cluster's claims that have premises;
3. candidates: every premise used for those claims, with its stance and premise cluster pi;
4. rank, with one of two rankers:
   * ``pfidf``: P(pi^+|q) and P(pi^-|q) from pf * icf (Eq. 2-5, :mod:`argkb.retrieve.pfidf`);
   * ``coreset``: the biased coreset (Algorithm 1 of Fromm et al.) over the candidate premises of
     each stance, relevance = cosine to the query (or P(p|q) of pfidf), then each candidate is
     assigned to its nearest selected premise to form the clusters;
5. one representative per cluster: the longest text (Dumani 2020), the premise nearest the
   cluster centroid (Dumani 2019), or the highest PageRank.

Stance alignment P(q aligned c) is pluggable (:class:`StanceAlignment`); the default treats every
retrieved claim as aligned with the query, as Dumani et al. do.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from argkb.db import cypher
from argkb.errors import ArgKBError
from argkb.retrieve.claims import RetrievedClaim, retrieve_claims

if TYPE_CHECKING:
    import neo4j
    import numpy as np
    from numpy.typing import NDArray

    from argkb.embed.model import Embedder
    from argkb.retrieve.hybrid import DirectHits, SidePool
    from argkb.retrieve.pfidf import EdgeTerms
    from argkb.retrieve.relevance import RelevanceModel

RankerName = Literal["hybrid", "pfidf", "coreset"]
DEFAULT_RANKER: RankerName = "hybrid"
"""The ranker ``argkb query`` and every ``argkb eval`` dataset command use unless told otherwise:
the one that wins across datasets with parameters fitted on other data (docs/evaluation.md)."""
StanceChoice = Literal["pro", "con", "both"]
Representative = Literal["longest", "centroid", "pagerank", "best"]
CoresetRelevance = Literal["learned", "cosine", "pfidf"]
PremiseClusters = Literal["offline", "query"]


class QueryError(ArgKBError):
    """The query cannot be answered (empty graph, missing embeddings, ...)."""


class StanceAlignment(Protocol):
    """P(q aligned c): the probability that query and claim take the same stance.

    ``contrast``: where the engine has it, the MiniLM contrast ``cos(q, c) - cos(q, not c)`` of
    each claim (None where not), computed on the server from the vectors ``argkb embed`` stored;
    an estimator may use or ignore it.
    """

    def __call__(
        self, query: str, claims: list[str], contrast: Sequence[float | None] | None = None
    ) -> list[float]: ...


def _sides(stance: StanceChoice) -> tuple[str, ...]:
    """The stances a query asks for: both, or the one it names."""
    return ("pro", "con") if stance == "both" else (stance,)


def always_aligned(
    query: str, claims: list[str], contrast: Sequence[float | None] | None = None
) -> list[float]:
    """Dumani et al.'s experimental choice: every retrieved claim shares the query's stance."""
    return [1.0] * len(claims)


AlignmentChoice = Literal["model", "soft", "always"]


def choose_alignment(choice: AlignmentChoice, embedder: Embedder) -> StanceAlignment:
    """The estimator behind ``--alignment``: ``model`` (the default: the estimator's decisions),
    ``soft`` (its probabilities) or ``always`` (every claim aligned, Dumani et al.)."""
    if choice == "always":
        return always_aligned
    return model_alignment(embedder, hard=choice == "model")


def model_alignment(embedder: Embedder, *, hard: bool = True) -> StanceAlignment:
    """The stance-alignment estimator of :mod:`argkb.stance.alignment` (negation and antonym
    flips, contrast in embedding space), sharing the engine's embedder.

    ``hard`` (the default of ``argkb query``): a claim counts as aligned (1) or opposed (0);
    else the estimator's probability weighs its premises' sides."""
    from argkb.stance.alignment import StanceAligner

    return StanceAligner(embedder, hard=hard)


@dataclass(frozen=True)
class Settings:
    """The query engine's parameters; the defaults are the tuned ones.

    Attributes
    ----------
    claims_k : int
        Retrieved claims.
    claim_pool : int
        Candidates asked of each claim retriever.
    claim_weight : float
        Weight of cosine vs BM25 in claim retrieval. 1: claims are scored by cosine alone, and
        BM25 only proposes candidates. BM25 divided by the best hit's BM25 gives a claim that
        shares one word with a short query ("Born Gay?" and "Should Gay Marriage Be Legal?") full
        lexical credit; at 0.7 that outweighed a cosine of .67 against .42 (docs/evaluation.md).
        ArgKP train cannot tell 0.7 from 1 (TaskB@10 .6512 vs .6529, bench/tune_hybrid.py
        --claim-weights).
    min_similarity : float
        Cosine below which a claim is not "similar".
    claim_temperature : float or None
        Softmax temperature of P(c|q); None: linear.
    representative : {"longest", "centroid", "pagerank", "best"}
        Which member shows a cluster (best: the hybrid ranker's best-fused member).
    coreset_alpha : float
        Coreset trade-off, 1 = relevance only, 0 = coverage only; chosen on held-out ArgKP
        train topics (bench/train_relevance.py).
    coreset_relevance : {"learned", "cosine", "pfidf"}
        Coreset relevance r(p|q): the learned relevance filter, cosine to the query, or the
        pf-icf share.
    coreset_filter : float
        Relevance filter: share of the top premise's claim mass P(c|q).
    premise_clusters : {"offline", "query"}
        Premise clusters pi: "offline" (argkb cluster, corpus-wide, cf from the corpus) or
        "query" (complete linkage over this query's candidates at ``premise_cut``, cf over the
        candidates).
    premise_cut : float
        Cut of the query-time premise clustering (``premise_clusters="query"``).
    bm25_depth, vector_depth : int
        Hybrid ranker (:mod:`argkb.retrieve.hybrid`): depth of the direct premise routes.
    collection_widen : int
        With a collection the direct routes read ``collection_widen`` times deeper.
    cluster_claims : int
        Claims read per retrieved claim cluster: the retrieved claim and the cluster's other
        claims nearest the query, at most this many in all (0: every claim). P(gamma|q) is shared
        by the claims read. Clusters on the benchmarks are far smaller; on a 400k-argument
        synthetic graph one held 1,060 claims and 41,000 candidate edges (docs/benchmarks.md).
    rrf_k : float
        Reciprocal rank fusion constant.
    weight_claims, weight_bm25, weight_cosine : float
        Route weights. Weights and k chosen on ArgKP train by bench/tune_hybrid.py: of the settings
        within .01 TaskB@10 of the best (.6638), the one that weighs the direct routes most (.6559)
    weight_argument : float
        Weight of the argumentativeness route (:mod:`argkb.retrieve.argument_prior`): candidates
        ranked by how much their text reads as an argument; 0 leaves it out (and unread).
    """

    claims_k: int = 10
    claim_pool: int = 50
    claim_weight: float = 1.0
    min_similarity: float = 0.4
    claim_temperature: float | None = 0.05
    representative: Representative = "longest"
    coreset_alpha: float = 0.8
    coreset_relevance: CoresetRelevance = "learned"
    coreset_filter: float = 0.0
    premise_clusters: PremiseClusters = "offline"
    premise_cut: float = 0.40
    bm25_depth: int = 100
    vector_depth: int = 100
    collection_widen: int = 20
    cluster_claims: int = 100
    rrf_k: float = 10.0
    weight_claims: float = 3.0
    weight_bm25: float = 1.0
    weight_cosine: float = 0.5
    weight_argument: float = 0.0


@dataclass
class CoresetPool:
    """The candidate premises of one stance, for the coreset ranker (arrays aligned by premise)."""

    premises: list[int]
    keys: list[str]  # Unit.uid of each premise
    vectors: NDArray[np.float32]
    cosine: NDArray[np.float64]  # to the query
    similarity: NDArray[np.float64]  # premise x premise cosine
    claim_mass: NDArray[np.float64]  # sum of P(c|q) over the claims the premise is used for
    pfidf: NDArray[np.float64]  # the premise's summed pf-icf contribution
    words: NDArray[np.int64]


@dataclass
class Ranked:
    """One entry of a ranker's list before it is materialised: its score, the candidate premises
    it stands for (internal ids, representative first for the coreset and hybrid rankers), its
    cluster label and, for the hybrid ranker, what explains its rank."""

    score: float
    premises: list[int]
    label: int
    explain: dict[str, Any] | None = None


@dataclass(frozen=True)
class MemberSource:
    """Where an argument a premise is used in comes from (``(:Argument)-[:FROM]->(:Source)``).

    ``title``: a title, ArgKP topic or args.me discussion title, None where the data has none
    (the ``sid`` names the source then); ``url``: as the data gave it, None where it gave none.
    """

    sid: str
    title: str | None = None
    url: str | None = None


@dataclass
class Member:
    key: str
    text: str
    pagerank: float | None
    arguments: list[str]
    # where the premise's stance in these arguments came from: "data", "model" (argkb stance)
    # or "data+model"
    stance_source: str = "data"
    # the distinct sources of ``arguments``, by sid (empty where they have none)
    sources: list[MemberSource] = field(default_factory=list)


@dataclass
class ResultCluster:
    rank: int
    stance: str
    score: float
    representative: Member
    size: int
    members: list[Member]
    explain: dict[str, Any] | None = None


@dataclass
class QueryResult:
    query: str
    ranker: str
    claims: list[dict[str, Any]]
    pro: list[ResultCluster] = field(default_factory=list)
    con: list[ResultCluster] = field(default_factory=list)
    message: str | None = None
    seconds: dict[str, float] = field(default_factory=dict)
    candidates: int = 0  # distinct candidate premises (before ranking)
    notes: list[str] = field(default_factory=list)  # what the answer had to do without


@dataclass(frozen=True)
class EdgeColumns:
    """Candidate edges premise -> claim as the edge queries answer them: parallel lists, one
    position per edge (``cypher/query/premises_of_claims.cypher``, ``premise_edges.cypher``;
    the latter adds each premise's ``score`` and ``words``, which the hybrid takes out first).

    The claim route's edges of a claim cluster are those whose claim is in it: every premise
    of such a claim is a candidate, so :meth:`QueryEngine._share_claim_mass` finds the claims
    with premises among any candidate edges."""

    claim: list[int]
    premise: list[int]
    premise_key: list[str]  # Unit.uid: stable across reloads, unlike internal ids
    stance: list[str]  # "pro", "con" or "unknown"
    stance_source: list[str]
    argument: list[str]
    cluster: list[str]  # premise cluster name; "" where the premise is unclustered
    cf_pro: list[float]  # corpus-wide claim frequencies of the cluster; < 0 where not known
    cf_con: list[float]

    @classmethod
    def read(cls, engine: QueryEngine, name: str, **params: Any) -> EdgeColumns:
        return cls(**cypher.read_columns(engine.driver, name, database=engine.database, **params))

    def __len__(self) -> int:
        return len(self.premise)


@dataclass
class _Candidates:
    """Candidate edges premise -> claim (arrays aligned by edge)."""

    premise: NDArray[np.int64]
    claim: NDArray[np.int64]
    claim_cluster: NDArray[np.int64]
    premise_cluster: NDArray[np.int64]
    pro: NDArray[np.bool_]
    cf_pro: NDArray[np.float64]
    cf_con: NDArray[np.float64]
    p_claim: NDArray[np.float64]
    argument: list[str]
    cluster_names: list[str]
    stance_source: list[str]
    key_of: dict[int, str]  # Unit.uid of each premise

    def by_key(self, premises: set[int]) -> list[int]:
        """``premises`` in the order of their unit keys: candidate order, and so every tie a
        ranker breaks by position, is the same whatever internal ids a reload gave them."""
        return sorted(premises, key=self.key_of.__getitem__)


class QueryEngine:
    """Query answering over one database; holds the embedder (model loaded once)."""

    def __init__(
        self,
        driver: neo4j.Driver,
        embedder: Embedder,
        *,
        database: str | None = None,
        settings: Settings | None = None,
        alignment: StanceAlignment = always_aligned,
        counts_ttl: float | None = None,
    ) -> None:
        """``counts_ttl``: seconds the graph's sizes (:meth:`counts`) are reused before they
        are read again; ``None``: for the engine's lifetime (one command, one graph). A
        long-lived engine shared by many requests (``argkb serve``) sets it, so that a corpus
        loaded meanwhile is counted."""
        self.driver = driver
        self.embedder = embedder
        self.database = database
        self.settings = settings or Settings()
        self.alignment = alignment
        self.counts_ttl = counts_ttl
        self._counts: dict[str, int] | None = None
        self._counted_at = 0.0
        self._model: RelevanceModel | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def _pool(self) -> ThreadPoolExecutor:
        """Threads for reads that can overlap (the hybrid's direct routes and claim route)."""
        with self._lock:  # engines may be shared by request threads (argkb serve)
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=8,
                                                    thread_name_prefix="argkb-query")  # fmt: skip
            return self._executor

    def _read(self, name: str, **params: Any) -> list[Any]:
        return cypher.read(self.driver, name, database=self.database, **params)

    def counts(self) -> dict[str, int]:
        """|Gamma| (claim clusters) and the number of claims; see ``counts_ttl``."""
        now = time.monotonic()
        stale = self.counts_ttl is not None and now - self._counted_at > self.counts_ttl
        if self._counts is None or stale:
            self._counts = dict(self._read("query/counts")[0].data())
            self._counted_at = now
        return self._counts

    # -- the query -----------------------------------------------------------------------------

    def query(
        self,
        text: str,
        *,
        k: int = 10,
        ranker: RankerName = DEFAULT_RANKER,
        stance: StanceChoice = "both",
        explain: bool = False,
        collection: str | None = None,
    ) -> QueryResult:
        """Answer ``text`` with at most ``k`` ranked premise clusters per wanted stance.

        Parameters
        ----------
        text : str
            The query claim.
        k : int
            Clusters per stance. A list is shorter only when fewer candidates exist (pfidf
            stops at clusters with a positive score; the coreset at its pool).
        ranker : {"hybrid", "pfidf", "coreset"}
            ``hybrid``: three candidate routes fused by reciprocal rank (:mod:`.hybrid`);
            ``pfidf``: Dumani et al. 2020; ``coreset``: Fromm et al. 2021.
        stance : {"pro", "con", "both"}
            Which side(s) of the query to answer.
        explain : bool
            Attach to each cluster the numbers that placed it.
        collection : str, optional
            A ``Source.sid`` prefix: only premises of arguments from such sources are candidates
            (used by the evaluation harness to scope a benchmark).

        Returns
        -------
        QueryResult
            ``pro`` / ``con`` clusters, the retrieved claims, per-stage seconds, and a
            ``message`` when there is nothing to answer.
        """
        if ranker not in ("hybrid", "pfidf", "coreset"):
            raise QueryError(f"unknown ranker {ranker!r}: use hybrid, pfidf or coreset")
        result = QueryResult(text, ranker, [])
        if not text.strip():
            result.message = (
                "The query is empty: ask a claim, e.g. 'We should abandon fossil fuels'."
            )
            return result
        if self.counts()["claims"] == 0:
            result.message = "The graph has no claims yet: load a corpus first (argkb load ...)."
            return result
        if not self.embedder.loaded:  # first query of this process: load the model
            clock = time.perf_counter()
            _ = self.embedder.model
            result.seconds["model_load"] = time.perf_counter() - clock
        clock = time.perf_counter()
        vector = self.embedder.embed([text], use_cache=False)[0]
        result.seconds["embed"] = time.perf_counter() - clock

        clock = time.perf_counter()
        direct: Future[DirectHits] | None = None
        if ranker == "hybrid":  # the direct routes do not need the claims: read them meanwhile
            from argkb.retrieve.hybrid import direct_hits

            direct = self._pool().submit(direct_hits, self, text, vector, collection,
                                         result.notes)  # fmt: skip
        try:
            claims = self._retrieve_claims(text, vector, result.notes)
        except BaseException:
            if direct is not None:  # let the direct routes finish; the claims' error wins
                wait([direct])
            raise
        hits = direct.result() if direct is not None else None
        result.seconds["claims"] = time.perf_counter() - clock
        if not claims and ranker != "hybrid":
            result.message = (
                "No claim in the graph is similar to this query "
                f"(cosine >= {self.settings.min_similarity}); "
                "try other words, or check the query's language (the default model is English)."
            )
            return result
        rows = self._cluster_rows(claims, vector) if claims else []
        claim_info = {r["claim"]: r for r in rows}
        result.claims = [
            {"text": claim_info[c.id]["text"], "key": claim_info[c.id]["key"], "p": c.p,
             "cosine": c.cosine, "bm25": c.bm25}
            for c in claims
        ]  # fmt: skip

        clock = time.perf_counter()
        wanted = _sides(stance)
        p_cluster, claim_cluster = self._claim_mass(claims, vector, rows) if claims else ({}, {})
        terms: EdgeTerms | None = None
        if ranker == "hybrid":
            from argkb.retrieve.hybrid import rank_hybrid

            ranked, candidates = rank_hybrid(self, text, vector, p_cluster, claim_cluster,
                                             collection, k, wanted, result.notes,
                                             hits)  # fmt: skip
        else:
            candidates = self._candidates(p_cluster, claim_cluster, collection)
        result.seconds["candidates"] = time.perf_counter() - clock
        if candidates is None:
            result.message = (
                "Nothing in the graph matches this query: no premise shares its words or is "
                "near its meaning (has 'argkb embed' run?)."
                if ranker == "hybrid" else "The similar claims have no premises."
            )  # fmt: skip
            return result
        result.candidates = len(set(candidates.premise.tolist()))

        clock = time.perf_counter()
        if ranker != "hybrid":
            terms = self._pfidf_terms(candidates)
            if ranker == "pfidf":
                ranked = self._rank_pfidf(text, vector, candidates, terms, k, wanted)
            else:
                ranked = self._rank_coreset(candidates, terms, vector, k, wanted)
        result.seconds["rank"] = time.perf_counter() - clock

        clock = time.perf_counter()
        self._materialise(result, ranked, candidates, terms if explain else None, explain)
        result.seconds["fetch"] = time.perf_counter() - clock
        result.seconds["total"] = float(
            sum(v for k, v in result.seconds.items() if k != "model_load")
        )
        return result

    def coreset_pools(self, text: str, stance: StanceChoice = "both") -> dict[str, CoresetPool]:
        """The coreset ranker's candidate pools of a query, per stance (empty: no candidates).

        What the relevance filter scores; ``bench/train_relevance.py`` fits it on these.
        """
        vector = self.embedder.embed([text], use_cache=False)[0]
        claims = self._retrieve_claims(text, vector)
        candidates = self._candidates(*self._claim_mass(claims, vector)) if claims else None
        if candidates is None:
            return {}
        terms = self._pfidf_terms(candidates)
        pools = {}
        for side in _sides(stance):
            pool = self.coreset_pool(candidates, terms, vector, side)
            if pool is not None:
                pools[side] = pool
        return pools

    def hybrid_pools(
        self, text: str, *, stance: StanceChoice = "both", collection: str | None = None
    ) -> dict[str, SidePool]:
        """The hybrid ranker's candidates of a query per side, with each route's evidence.

        What :func:`argkb.retrieve.hybrid.fuse_pool` ranks; ``bench/tune_hybrid.py`` gathers
        these once per query and tries its fusion settings on them.
        """
        from argkb.retrieve.hybrid import side_pools

        vector = self.embedder.embed([text], use_cache=False)[0]
        claims = self._retrieve_claims(text, vector)
        p_cluster, claim_cluster = self._claim_mass(claims, vector) if claims else ({}, {})
        wanted = _sides(stance)
        pools, _ = side_pools(self, text, vector, p_cluster, claim_cluster, collection, wanted)
        return pools

    # -- stage 1: similar claims -----------------------------------------------------------------

    def _retrieve_claims(
        self, text: str, vector: NDArray[np.float32], notes: list[str] | None = None
    ) -> list[RetrievedClaim]:
        s = self.settings
        return retrieve_claims(
            self.driver, text, vector, database=self.database, k=s.claims_k, pool=s.claim_pool,
            weight=s.claim_weight, min_similarity=s.min_similarity,
            temperature=s.claim_temperature, notes=notes,
        )  # fmt: skip

    # -- stage 2 and 3: claim clusters and candidate premises ------------------------------------

    def _cluster_rows(self, claims: list[RetrievedClaim], vector: NDArray[np.float32]) -> list[Any]:
        """Each retrieved claim's cluster and the claims of it that are read
        (``cypher/query/claim_clusters.cypher``, at most ``cluster_claims`` per cluster)."""
        cap = self.settings.cluster_claims
        return self._read("query/claim_clusters", ids=[c.id for c in claims],
                          vector=[float(x) for x in vector],
                          others=cap - 1 if cap > 0 else 2**31 - 1)  # fmt: skip

    def _claim_mass(
        self, claims: list[RetrievedClaim], vector: NDArray[np.float32],
        rows: list[Any] | None = None,
    ) -> tuple[dict[str, float], dict[int, str]]:  # fmt: skip
        """P(gamma|q) per claim cluster name (the sum of its retrieved claims' P(c|q)), and the
        cluster name of every claim read of those clusters. ``rows``: the claims'
        :meth:`_cluster_rows`, when the caller has read them already."""
        p_cluster: dict[str, float] = defaultdict(float)
        claim_p = {c.id: c.p for c in claims}
        cluster_of_claim: dict[int, str] = {}
        if rows is None:
            rows = self._cluster_rows(claims, vector)
        for row in rows:
            name = row["cluster"] or f"claim:{row['claim']}"
            p_cluster[name] += claim_p[row["claim"]]
            for member in row["members"]:
                cluster_of_claim[member] = name
        return dict(p_cluster), cluster_of_claim

    @staticmethod
    def _share_claim_mass(
        p_cluster: dict[str, float], cluster_of_claim: dict[int, str], edges: EdgeColumns
    ) -> dict[int, float]:
        """P(c|q) per claim: P(gamma|q) shared by the cluster's claims that have premises."""
        with_premises: dict[str, set[int]] = defaultdict(set)
        for claim in set(edges.claim):
            if claim in cluster_of_claim:
                with_premises[cluster_of_claim[claim]].add(claim)
        return {
            claim: p_cluster[name] / len(claims_in)
            for name, claims_in in with_premises.items()
            for claim in claims_in
        }

    def _candidates(
        self, p_cluster: dict[str, float], cluster_of_claim: dict[int, str],
        collection: str | None = None,
    ) -> _Candidates | None:  # fmt: skip
        """The claim route's candidate edges: every premise of every claim of each retrieved
        claim cluster (from ``collection`` only, when given)."""
        edges = EdgeColumns.read(self, "query/premises_of_claims", claims=sorted(cluster_of_claim),
                                 collection=collection)  # fmt: skip
        if not len(edges):
            return None
        if self.settings.premise_clusters == "query":
            edges = self._cluster_candidates(edges)
        p_claim = self._share_claim_mass(p_cluster, cluster_of_claim, edges)
        return self._edge_arrays(edges, p_claim, cluster_of_claim)

    def _edge_arrays(
        self, edges: EdgeColumns, p_claim: dict[int, float], cluster_of_claim: dict[int, str]
    ) -> _Candidates:
        """Candidate edges as arrays; a claim outside ``p_claim`` has P(c|q) = 0 and a claim
        cluster of its own, an unclustered premise a premise cluster of its own."""
        import numpy as np

        # a premise of unknown stance is no candidate for either side until `argkb stance` runs;
        # edges in the order of premise key and argument id, so cluster labels (numbered in
        # order of first appearance) do not depend on the order the server found them in
        kept = sorted(
            (i for i, stance in enumerate(edges.stance) if stance in ("pro", "con")),
            key=lambda i: (edges.premise_key[i], edges.argument[i], edges.claim[i]),
        )
        claims = [edges.claim[i] for i in kept]
        premises = [edges.premise[i] for i in kept]
        # premise clusters; an unclustered premise is a cluster of its own
        names: dict[str, int] = {}
        labels = [
            names.setdefault(edges.cluster[i] or f"unit:{edges.premise[i]}", len(names))
            for i in kept
        ]
        gammas: dict[str, int] = {}
        claim_clusters = [
            gammas.setdefault(cluster_of_claim.get(c, f"claim:{c}"), len(gammas)) for c in claims
        ]

        def frequencies(values: list[float]) -> NDArray[np.float64]:
            out = np.asarray([values[i] for i in kept], dtype=np.float64).reshape(-1)
            out[out < 0] = np.nan
            return out

        out = _Candidates(
            premise=np.asarray(premises, np.int64), claim=np.asarray(claims, np.int64),
            claim_cluster=np.asarray(claim_clusters, np.int64),
            premise_cluster=np.asarray(labels, np.int64),
            pro=np.asarray([edges.stance[i] == "pro" for i in kept], bool),
            cf_pro=frequencies(edges.cf_pro), cf_con=frequencies(edges.cf_con),
            p_claim=np.asarray([p_claim.get(c, 0.0) for c in claims], np.float64),
            argument=[edges.argument[i] for i in kept], cluster_names=list(names),
            stance_source=[edges.stance_source[i] or "data" for i in kept],
            key_of={edges.premise[i]: edges.premise_key[i] for i in kept},
        )  # fmt: skip
        # without offline clusters, cf is counted over the candidates (documented approximation)
        for flag, cf in ((True, out.cf_pro), (False, out.cf_con)):
            missing = np.isnan(cf)
            if missing.any():
                for cluster in np.unique(out.premise_cluster[missing]):
                    rows = (out.premise_cluster == cluster) & (out.pro == flag)
                    cf[missing & (out.premise_cluster == cluster)] = len(
                        np.unique(out.claim_cluster[rows])
                    )
        return out

    def _cluster_candidates(self, edges: EdgeColumns) -> EdgeColumns:
        """The candidate edges with premise clusters made now, over this query's candidates.

        Complete linkage at ``premise_cut`` (the offline default) over the distinct candidate
        premises; ``cf_pro`` / ``cf_con`` are left unknown, so they are counted over the
        candidates.
        """
        from dataclasses import replace

        from argkb.cluster.hierarchy import agglomerative

        key = dict(zip(edges.premise, edges.premise_key, strict=True))
        premises = sorted(set(edges.premise), key=key.__getitem__)
        labels = agglomerative(self._vectors(premises), linkage="complete",
                               cut=self.settings.premise_cut)  # fmt: skip
        label = dict(zip(premises, labels.tolist(), strict=True))
        unknown = [-1.0] * len(edges)
        return replace(edges, cluster=[f"q:{label[p]}" for p in edges.premise],
                       cf_pro=unknown, cf_con=unknown)  # fmt: skip

    # -- stage 4: rankers ------------------------------------------------------------------------

    def alignment_inputs(
        self, ids: list[int], vector: NDArray[np.float32]
    ) -> dict[int, tuple[str, float | None]]:
        """Each claim's text and embedding contrast (None where not stored), from one read
        (``cypher/query/alignment_inputs.cypher``)."""
        inputs = cypher.read_columns(self.driver, "query/alignment_inputs",
                                     database=self.database, ids=ids,
                                     vector=[float(x) for x in vector])  # fmt: skip
        return {
            int(cid): (claim, value if known else None)
            for cid, claim, value, known in zip(
                inputs["id"], inputs["text"], inputs["contrast"], inputs["known"], strict=True
            )
        }

    def _alignment(
        self,
        text: str,
        vector: NDArray[np.float32],
        candidates: _Candidates,
        inputs: dict[int, tuple[str, float | None]] | None = None,
    ) -> NDArray[np.float64]:
        """P(q aligned c) for the claim of every candidate edge, from ``self.alignment``.

        Only the claims the claim route credits (P(c|q) > 0) are asked about; the conclusions of
        premises found directly by BM25 or vector search count as aligned, so such a premise
        keeps the stance it has towards its own conclusion (and no estimator runs over dozens
        of unrelated conclusions per query). ``inputs``: :meth:`alignment_inputs` of a superset
        of those claims when the caller read them already (the hybrid reads them for every
        claim of the retrieved claim clusters while its edges are read); else read here.
        """
        import numpy as np

        out = np.ones(len(candidates.claim))
        if self.alignment is always_aligned:
            return out
        credited = candidates.p_claim > 0
        ids = sorted(set(int(c) for c in candidates.claim[credited]))
        if not ids:
            return out
        if inputs is None:
            inputs = self.alignment_inputs(ids, vector)
        asked = [inputs[c] for c in ids]
        p = self.alignment(text, [claim for claim, _ in asked], [value for _, value in asked])
        values = dict(zip(ids, p, strict=True))
        out[credited] = [values[int(c)] for c in candidates.claim[credited]]
        return out

    def _pfidf_terms(self, candidates: _Candidates) -> EdgeTerms:
        from argkb.retrieve.pfidf import edge_terms

        n_gamma = max(self.counts()["claim_clusters"], int(candidates.claim_cluster.max()) + 1)
        return edge_terms(
            candidates.premise_cluster, candidates.claim, candidates.claim_cluster,
            candidates.pro, candidates.cf_pro, candidates.cf_con, n_gamma, candidates.p_claim,
        )  # fmt: skip

    def _rank_pfidf(
        self, text: str, vector: NDArray[np.float32], candidates: _Candidates, terms: EdgeTerms,
        k: int, wanted: tuple[str, ...],
    ) -> dict[str, list[Ranked]]:  # fmt: skip
        """Per stance: the premise clusters by P(pi^s|q), best first (label: cluster index)."""
        import numpy as np

        from argkb.retrieve.pfidf import cluster_scores

        aligned = self._alignment(text, vector, candidates)
        scores = cluster_scores(candidates.premise_cluster, candidates.pro, terms, aligned)
        # an edge's side towards the query: its stance, flipped where the claim opposes the query
        side_pro = candidates.pro == (aligned >= 0.5)
        ranked: dict[str, list[Ranked]] = {}
        for stance in wanted:
            values = scores.pro if stance == "pro" else scores.con
            order = np.lexsort((scores.clusters, -values))
            rows: list[Ranked] = []
            for index in order:
                if values[index] <= 0 or len(rows) == k:
                    break
                label = scores.clusters[index]
                in_cluster = candidates.premise_cluster == label
                side = in_cluster & (side_pro == (stance == "pro"))
                premises = candidates.by_key(set(candidates.premise[side].tolist()))
                if premises:  # a partly aligned claim can lend a side mass but no member
                    rows.append(Ranked(float(values[index]), premises, int(label)))
            ranked[stance] = rows
        return ranked

    def coreset_pool(
        self, candidates: _Candidates, terms: EdgeTerms, vector: NDArray[np.float32], stance: str
    ) -> CoresetPool | None:
        """The candidate premises of one stance with what the relevance scorers need."""
        import numpy as np

        side = candidates.pro == (stance == "pro")
        mass: dict[int, float] = defaultdict(float)
        share: dict[int, float] = defaultdict(float)
        for p, value, part in zip(candidates.premise[side], candidates.p_claim[side],
                                  terms.contribution[side], strict=True):  # fmt: skip
            mass[int(p)] += float(value)
            share[int(p)] += float(part)
        # relevance filter (Fromm et al., Sec. 3.1): keep premises whose claims carry at
        # least `coreset_filter` of the best premise's claim mass P(c|q)
        floor = self.settings.coreset_filter * max(mass.values(), default=0.0)
        premises = candidates.by_key({p for p, m in mass.items() if m >= floor})
        if not premises:
            return None
        rows = {r["id"]: r for r in self._read("query/units", ids=premises, vectors=True)}
        dims = self.embedder.dimensions
        vectors = np.asarray(
            [rows[i]["embedding"] or [0.0] * dims for i in premises], dtype=np.float32
        )
        return CoresetPool(
            premises=premises,
            keys=[rows[p]["key"] for p in premises],
            vectors=vectors,
            cosine=(vectors @ vector).astype(np.float64),
            similarity=(vectors @ vectors.T).astype(np.float64),
            claim_mass=np.asarray([mass[p] for p in premises]),
            pfidf=np.asarray([share[p] for p in premises]),
            words=np.asarray([len((rows[p]["text"] or "").split()) for p in premises]),
        )

    def coreset_relevance(self, pool: CoresetPool) -> NDArray[np.float64]:
        """r(p|q) of each pooled premise, by ``settings.coreset_relevance``."""
        from argkb.retrieve.relevance import premise_features

        choice = self.settings.coreset_relevance
        if choice == "cosine":
            return pool.cosine
        if choice == "pfidf":
            top = pool.pfidf.max()
            return pool.pfidf / top if top > 0 else pool.pfidf
        if choice == "learned":
            features = premise_features(
                pool.cosine, pool.claim_mass, pool.similarity, pool.pfidf, pool.words,
                same_within=1.0 - self.settings.premise_cut,
            )  # fmt: skip
            return self._relevance_model().score(features)
        raise QueryError(f"unknown coreset relevance {choice!r}: use learned, cosine or pfidf")

    def _relevance_model(self) -> RelevanceModel:
        if self._model is None:
            from argkb.retrieve.relevance import RelevanceModel

            self._model = RelevanceModel.load()
        return self._model

    def _rank_coreset(
        self, candidates: _Candidates, terms: EdgeTerms, vector: NDArray[np.float32], k: int,
        wanted: tuple[str, ...],
    ) -> dict[str, list[Ranked]]:  # fmt: skip
        import numpy as np

        from argkb.retrieve.coreset import assign_to_nearest, biased_coreset

        ranked: dict[str, list[Ranked]] = {}
        for stance in wanted:
            pool = self.coreset_pool(candidates, terms, vector, stance)
            if pool is None:
                ranked[stance] = []
                continue
            relevance = self.coreset_relevance(pool)
            chosen, gains = biased_coreset(relevance, pool.similarity, k,
                                           self.settings.coreset_alpha)  # fmt: skip
            owner = assign_to_nearest(pool.similarity, chosen)
            rows = []
            for position, index in enumerate(chosen):
                group = [pool.premises[i] for i in np.flatnonzero(owner == position)]
                rep = pool.premises[int(index)]
                group = [rep] + [p for p in group if p != rep]
                rows.append(Ranked(float(gains[position]), group, rep))
            ranked[stance] = rows
        return ranked

    def _vectors(self, ids: list[int]) -> NDArray[np.float32]:
        import numpy as np

        rows = {r["id"]: r["embedding"] for r in self._read("query/units", ids=ids, vectors=True)}
        dims = self.embedder.dimensions
        return np.asarray(
            [rows[i] if rows.get(i) is not None else [0.0] * dims for i in ids], dtype=np.float32
        )

    # -- stage 5: representatives and output ---------------------------------------------------

    def _materialise(
        self,
        result: QueryResult,
        ranked: dict[str, list[Ranked]],
        candidates: _Candidates,
        terms: EdgeTerms | None,
        explain: bool = False,
    ) -> None:
        """Fill ``result.pro`` / ``result.con``; with ``explain``, say what placed each cluster
        (the hybrid ranker's own explanation, or pf-icf's from ``terms``)."""
        ids = sorted({p for stance in ("pro", "con") for entry in ranked.get(stance, [])
                      for p in entry.premises})  # fmt: skip
        need_vectors = self.settings.representative == "centroid"
        wanted = set(ids)
        arguments: dict[int, list[str]] = defaultdict(list)
        sources: dict[int, set[str]] = defaultdict(set)
        for p, aid, source in zip(candidates.premise.tolist(), candidates.argument,
                                  candidates.stance_source, strict=True):  # fmt: skip
            arguments[p].append(aid)
            sources[p].add(source)
        # the members' sources are read alongside their texts: no extra round trip in sequence
        aids = sorted({aid for p in wanted for aid in arguments[p]})
        origins = self._pool().submit(self._read, "query/sources", aids=aids)
        info = {r["id"]: r for r in self._read("query/units", ids=ids, vectors=need_vectors)}
        source_of: dict[str, MemberSource] = {
            r["aid"]: MemberSource(r["sid"], r["title"], r["url"]) for r in origins.result()
        }
        claim_text: dict[int, str] = {}
        if terms is not None:
            claim_ids = sorted(set(candidates.claim.tolist()))
            claim_text = {r["id"]: r["text"] for r in self._read("query/units", ids=claim_ids,
                                                                  vectors=False)}  # fmt: skip
        for stance in ("pro", "con"):
            clusters = []
            for rank, entry in enumerate(ranked.get(stance, []), start=1):
                premises = entry.premises
                members = [
                    Member(info[p]["key"], info[p]["text"], info[p]["pagerank"],
                           sorted(set(arguments[p])), "+".join(sorted(sources[p])),
                           _sources(arguments[p], source_of))
                    for p in premises
                ]  # fmt: skip
                if result.ranker in ("coreset", "hybrid"):
                    representative = members[0]  # chosen by the ranker itself
                else:
                    representative = self._representative(premises, members, info)
                detail = None
                if explain and entry.explain is not None:
                    detail = {"pagerank": representative.pagerank, **entry.explain}
                elif terms is not None:
                    detail = self._explain(stance, entry.label, candidates, terms, claim_text,
                                           representative, result.ranker)  # fmt: skip
                clusters.append(ResultCluster(rank, stance, entry.score, representative,
                                              len(members), members, detail))  # fmt: skip
            setattr(result, stance, clusters)

    def _representative(
        self, premises: list[int], members: list[Member], info: dict[int, Any]
    ) -> Member:
        import numpy as np

        choice = self.settings.representative
        if choice == "pagerank":
            return max(members, key=lambda m: (m.pagerank or 0.0, len(m.text)))
        if choice == "centroid":
            vectors = np.asarray([info[p]["embedding"] or [0.0] for p in premises], dtype=float)
            if vectors.ndim == 2 and vectors.shape[1] > 1:
                centre = vectors.mean(axis=0)
                return members[int(np.argmax(vectors @ centre))]
        return max(members, key=lambda m: (len(m.text), m.key))

    def _explain(
        self, stance: str, label: Any, candidates: _Candidates, terms: EdgeTerms,
        claim_text: dict[int, str], representative: Member, ranker: str,
    ) -> dict[str, Any]:  # fmt: skip
        import numpy as np

        detail: dict[str, Any] = {"pagerank": representative.pagerank}
        if ranker == "coreset":
            return detail
        rows = np.flatnonzero(
            (candidates.premise_cluster == label) & (candidates.pro == (stance == "pro"))
        )
        by_claim: dict[int, list[int]] = defaultdict(list)
        for i in rows:
            by_claim[int(candidates.claim[i])].append(int(i))
        # one line per claim: its total contribution, with the pf/icf of its edges (equal within
        # a claim cluster and premise cluster, so the first edge speaks for all)
        lines = sorted(by_claim.items(), key=lambda kv: -terms.contribution[kv[1]].sum())[:3]
        detail["cluster"] = candidates.cluster_names[int(label)]
        detail["claims"] = [
            {"claim": claim_text.get(claim, ""), "p_claim": float(candidates.p_claim[edges[0]]),
             "pf": float(terms.pf[edges[0]]), "icf": float(terms.icf[edges[0]]),
             "p_premise_given_claim": float(terms.p_premise_given_claim[edges].sum()),
             "contribution": float(terms.contribution[edges].sum())}
            for claim, edges in lines
        ]  # fmt: skip
        return detail


def _sources(aids: list[str], source_of: dict[str, MemberSource]) -> list[MemberSource]:
    """The distinct sources of a premise's arguments, by sid."""
    found = {source_of[a].sid: source_of[a] for a in aids if a in source_of}
    return [found[sid] for sid in sorted(found)]
