"""Answer a query claim with ranked, deduplicated pro and con premise clusters.

The pipeline (Dumani et al., ECIR 2020, Sec. 4-5; Fromm et al., ECIR 2021, Sec. 3):

1. embed the query; retrieve similar claims with P(c|q) (:mod:`argkb.retrieve.claims`);
2. widen each retrieved claim to its claim cluster gamma (``argkb cluster``); P(gamma|q) is the sum
   of its retrieved claims' P(c|q), shared equally by the cluster's claims that have premises;
3. candidates: the premises a ranker gathers, with their stance and premise cluster pi
   (:mod:`argkb.query.candidates`);
4. rank with the ranker the settings name (:mod:`argkb.query.rankers`: ``hybrid``, ``pfidf``,
   ``coreset``);
5. one representative per cluster, texts and sources (:mod:`argkb.query.materialise`).

The settings (:class:`~argkb.query.settings.QuerySettings`) decide everything; ``QueryEngine(
driver, embedder)`` answers exactly as ``argkb query`` and ``argkb serve`` do by default.
"""

from __future__ import annotations

import time
from concurrent.futures import wait
from typing import TYPE_CHECKING, Any

from argkb.errors import QueryError
from argkb.query.alignment import StanceAlignment, choose_alignment
from argkb.query.candidates import CandidateReader
from argkb.query.materialise import materialise
from argkb.query.rankers import RANKERS, CoresetPool, QueryContext, Ranker
from argkb.query.settings import DEFAULT, DEFAULT_K, QuerySettings, StanceChoice
from argkb.query.types import QueryResult

if TYPE_CHECKING:
    import neo4j
    import numpy as np
    from numpy.typing import NDArray

    from argkb.embed.model import Embedder
    from argkb.query.rankers.hybrid_fusion import SidePool


def sides(stance: StanceChoice) -> tuple[str, ...]:
    """The stances a query asks for: both, or the one it names."""
    return ("pro", "con") if stance == "both" else (stance,)


def behind_notes(counts: dict[str, int]) -> list[str]:
    """What the answer says when the pipeline is behind a load (``query/counts``): corpora loaded
    since the last ``argkb cluster``, and derived data a dropped corpus or an interrupted run left
    to redo (:mod:`argkb.db.jobs`' markers, also there while a run writes). The full list is
    ``argkb status``'s; these are the ones cheap enough to read on every query. A graph never
    clustered (no claim cluster) is said to be so, not to have all its corpora loaded since."""
    notes = []
    since = counts.get("corpora_since_cluster", 0)
    if counts.get("claim_clusters") == 0 and counts.get("claims", 0) > 0:
        notes.append("the graph is not clustered yet ('argkb cluster' has not run): each premise "
                     "is a cluster of its own, so premises that say the same are listed apart; "
                     "run 'argkb update'")  # fmt: skip
    elif since:
        corpora, its = ("1 corpus", "its") if since == 1 else (f"{since:,} corpora", "their")
        notes.append(f"{corpora} loaded since the last 'argkb cluster': {its} arguments may be "
                     "missing from this answer or misranked; run 'argkb update'")  # fmt: skip
    if counts.get("runs_interrupted", 0):
        notes.append("clusters or PageRank are out of date (a corpus was dropped, or a run "
                     "stopped while writing them) or being rewritten: run 'argkb update' once "
                     "no run is going")  # fmt: skip
    return notes


class QueryEngine:
    """Query answering over one database; holds the embedder (model loaded once)."""

    def __init__(
        self,
        driver: neo4j.Driver,
        embedder: Embedder,
        *,
        database: str | None = None,
        settings: QuerySettings | None = None,
        alignment: StanceAlignment | None = None,
        counts_ttl: float | None = None,
    ) -> None:
        """``alignment``: an estimator of your own; by default the one the ``alignment`` setting
        names. ``counts_ttl``: see :class:`~argkb.query.candidates.CandidateReader`."""
        self.settings = settings or DEFAULT
        if alignment is None:
            alignment = choose_alignment(self.settings.alignment, embedder,
                                         self.settings.cross_claims)  # fmt: skip
        self.reader = CandidateReader(driver, embedder, database=database, settings=self.settings,
                                      alignment=alignment, counts_ttl=counts_ttl)  # fmt: skip
        self.rankers: dict[str, Ranker] = {name: make() for name, make in RANKERS.items()}

    @property
    def driver(self) -> neo4j.Driver:
        return self.reader.driver

    @property
    def embedder(self) -> Embedder:
        return self.reader.embedder

    @property
    def database(self) -> str | None:
        return self.reader.database

    @property
    def alignment(self) -> StanceAlignment:
        return self.reader.alignment

    def counts(self) -> dict[str, int]:
        """The graph's sizes and state, as :meth:`CandidateReader.counts
        <argkb.query.candidates.CandidateReader.counts>` reads them: ``claim_clusters``
        (|Gamma|), ``claims``, ``embedded``, ``models``, ``corpora_since_cluster`` and
        ``runs_interrupted``."""
        return self.reader.counts()

    def _check_vectors(self, counts: dict[str, Any]) -> None:
        """Refuse (one line) a graph without vectors, or with vectors of another model than the
        one that embeds the query (``argkb embed --model DIR``): the cosines would mean nothing."""
        if not counts["embedded"]:
            raise QueryError(
                "nothing in the graph is embedded yet: run 'argkb update' (or 'argkb embed', "
                "then 'argkb cluster')"
            )
        stored = counts["models"][0] if counts["models"] else None
        if stored is not None and not self.embedder.reads_like(stored):
            raise QueryError(
                f"the graph's vectors come from {stored.split(':')[0]} ({stored}), and queries "
                f"are embedded with {self.embedder.model_id}: run 'argkb embed --all' (the "
                "default model) before asking; a query cannot be compared with another model's "
                "vectors"
            )

    def ranker(self, name: str) -> Ranker:
        """The ranker called ``name``; a one-line error for an unknown name."""
        if name not in self.rankers:
            names = list(self.rankers)
            raise QueryError(f"unknown ranker {name!r}: use {', '.join(names[:-1])} or {names[-1]}")
        return self.rankers[name]

    def query(
        self,
        text: str,
        *,
        k: int = DEFAULT_K,
        ranker: str | None = None,
        stance: StanceChoice = "both",
        explain: bool = False,
        collection: str | None = None,
        snippets: bool | None = None,
    ) -> QueryResult:
        """Answer ``text`` with at most ``k`` ranked premise clusters per wanted stance.

        Parameters
        ----------
        text : str
            The query claim.
        k : int
            Clusters per stance. A list is shorter only when fewer candidates exist (pfidf
            stops at clusters with a positive score; the coreset at its pool).
        ranker : {"hybrid", "pfidf", "coreset"}, optional
            Default: the ``ranker`` setting.
        stance : {"pro", "con", "both"}
            Which side(s) of the query to answer.
        explain : bool
            Attach to each cluster the numbers that placed it.
        collection : str, optional
            A ``Source.sid`` prefix: only premises of arguments from such sources are candidates
            (used by the evaluation harness to scope a benchmark).
        snippets : bool, optional
            Give each long premise its best two sentences for the query; default: the
            ``snippets`` setting.

        Returns
        -------
        QueryResult
            ``pro`` / ``con`` clusters, the retrieved claims, per-stage seconds, and a
            ``message`` when there is nothing to answer.
        """
        chosen = self.ranker(ranker or self.settings.ranker)
        result = QueryResult(text, chosen.name, [])
        if not text.strip():
            result.message = (
                "The query is empty: ask a claim, e.g. 'We should abandon fossil fuels'."
            )
            return result
        counts = self.reader.counts()
        if counts["claims"] == 0:
            result.message = "The graph has no claims yet: load a corpus first (argkb load ...)."
            return result
        self._check_vectors(counts)
        result.notes.extend(behind_notes(counts))
        context = QueryContext(text, self._embed(text, result), k, sides(stance), collection,
                               notes=result.notes)  # fmt: skip
        if not self._similar_claims(chosen, context, result):
            return result
        clock = time.perf_counter()
        gathered = chosen.gather(self.reader, context)
        result.seconds["candidates"] = time.perf_counter() - clock
        if gathered.candidates is None:
            result.message = chosen.nothing_found
            return result
        result.candidates = len(set(gathered.candidates.premise.tolist()))
        clock = time.perf_counter()
        ranked = chosen.rank(self.reader, context, gathered)
        result.seconds["rank"] = time.perf_counter() - clock
        clock = time.perf_counter()
        materialise(self.reader, chosen, result, ranked, gathered, explain,
                    self.settings.snippets if snippets is None else snippets)  # fmt: skip
        result.seconds["fetch"] = time.perf_counter() - clock
        result.seconds["total"] = float(
            sum(v for name, v in result.seconds.items() if name != "model_load")
        )
        return result

    def _embed(self, text: str, result: QueryResult) -> NDArray[np.float32]:
        """The query's vector (loading the model on the first query of this process)."""
        if not self.embedder.loaded:
            clock = time.perf_counter()
            _ = self.embedder.model
            result.seconds["model_load"] = time.perf_counter() - clock
        clock = time.perf_counter()
        vector = self.embedder.embed([text], use_cache=False)[0]
        result.seconds["embed"] = time.perf_counter() - clock
        return vector

    def _similar_claims(self, ranker: Ranker, context: QueryContext, result: QueryResult) -> bool:
        """Stages 1-2: the similar claims, their clusters and P(gamma|q), into ``context`` and
        ``result.claims``; False (with a message) when the ranker cannot answer without any."""
        clock = time.perf_counter()
        early = ranker.start(self.reader, context)  # reads that need no claims, meanwhile
        try:
            claims = self.reader.similar_claims(context.text, context.vector, result.notes)
        except BaseException:
            if early is not None:  # let them finish; the claims' error wins
                wait([early])
            raise
        context.early = early.result() if early is not None else None
        result.seconds["claims"] = time.perf_counter() - clock
        if not claims and ranker.needs_claims:
            result.message = (
                "No claim in the graph is similar to this query "
                f"(cosine >= {self.settings.min_similarity}); "
                "try other words, or check the query's language (the default model is English)."
            )
            return False
        rows = self.reader.cluster_rows(claims, context.vector) if claims else []
        info = {r["claim"]: r for r in rows}
        result.claims = [
            {"text": info[c.id]["text"], "key": info[c.id]["key"], "p": c.p,
             "cosine": c.cosine, "bm25": c.bm25}
            for c in claims
        ]  # fmt: skip
        context.claims = claims
        if claims:
            context.p_cluster, context.claim_cluster = self.reader.claim_mass(
                claims, context.vector, rows
            )
        return True

    # -- what the tuning scripts fit on (bench/train_relevance.py, bench/tune_hybrid.py) ---------

    def coreset_pools(self, text: str, stance: StanceChoice = "both") -> dict[str, CoresetPool]:
        """The coreset ranker's candidate pools of a query, per stance (empty: no candidates)."""
        from argkb.query.rankers.coreset import CoresetRanker
        from argkb.query.rankers.pfidf import gather_claim_route

        context = self._context(text, stance)
        if not context.claims:
            return {}
        gathered = gather_claim_route(self.reader, context)
        if gathered.candidates is None:
            return {}
        coreset = self.rankers["coreset"]
        assert isinstance(coreset, CoresetRanker)
        pools = {}
        for side in context.wanted:
            pool = coreset.pool(self.reader, gathered.candidates, gathered.state, context.vector,
                                side)  # fmt: skip
            if pool is not None:
                pools[side] = pool
        return pools

    def hybrid_pools(
        self, text: str, *, stance: StanceChoice = "both", collection: str | None = None
    ) -> dict[str, SidePool]:
        """The hybrid ranker's candidates of a query per side, with each route's evidence: what
        :func:`argkb.query.rankers.hybrid_fusion.fuse_pool` ranks."""
        from argkb.query.rankers.hybrid import side_pools

        context = self._context(text, stance, collection)
        pools, _ = side_pools(self.reader, text, context.vector, context.p_cluster,
                              context.claim_cluster, collection, context.wanted)  # fmt: skip
        return pools

    def _context(
        self, text: str, stance: StanceChoice, collection: str | None = None
    ) -> QueryContext:
        """A query's context up to its claim clusters, without timings or messages."""
        vector = self.embedder.embed([text], use_cache=False)[0]
        context = QueryContext(text, vector, DEFAULT_K, sides(stance), collection)
        context.claims = self.reader.similar_claims(text, vector)
        if context.claims:
            context.p_cluster, context.claim_cluster = self.reader.claim_mass(
                context.claims, vector
            )
        return context
