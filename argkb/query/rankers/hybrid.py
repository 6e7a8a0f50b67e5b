"""The hybrid ranker: candidates from three routes, fused into one score, one per cluster.

Candidate premises come from (i) the claim route of Dumani et al. (premises of the claims most
similar to the query, :mod:`argkb.retrieve.claims`), (ii) BM25 over premise texts and (iii) the
premise vector index, each with its own depth (settings ``bm25_depth``, ``vector_depth``). So a
relevant premise whose own conclusion is worded unlike the query is still seen. The candidates of
each side (pro, con towards the query) are then scored by :mod:`argkb.retrieve.fusion`, and the
best premise of each premise cluster shows it. Two fusions (setting ``fusion``; the scoring is
:mod:`argkb.query.rankers.hybrid_fusion`):

* ``linear`` (the default): a weighted sum of each premise's features (``premise_features``:
  BM25 over the query's best, cosine to the query, cosine of its best conclusion on that side,
  its cluster's claim-route share, length, the argumentativeness prior); a cluster scores as its
  best member. The claim route lends credit in proportion to how well a conclusion matches the
  query, so a graph whose conclusions are debate titles ("Death penalty") gives no premise an
  oracle's credit.
* ``rrf``: weighted reciprocal rank fusion of the routes' ranks, clusters ranked by the same
  fusion over cluster-level route scores (the default until 2026-11-26).

A premise's side: its stance towards the conclusion of each argument it is used in, flipped where
the stance alignment says that conclusion opposes the query. Arguments whose conclusion the
claim route retrieved decide; a premise found only directly is placed by all its arguments, as
if their conclusions took the query's side (on both sides, if it is used both ways).
"""

from __future__ import annotations

from collections import defaultdict
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from argkb.db import cypher
from argkb.query.alignment import always_aligned
from argkb.query.candidates import EdgeColumns
from argkb.query.rankers.base import Gathered, QueryContext
from argkb.query.rankers.hybrid_fusion import Fusion, SidePool, fuse_pool
from argkb.query.types import Member, Ranked

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from argkb.query.candidates import CandidateReader, Candidates


@dataclass(frozen=True)
class DirectHits:
    """Premises found by the two direct routes: internal id -> the route's score."""

    bm25: dict[int, float]
    cosine: dict[int, float]
    searched: bool = True  # whether BM25 ran (the query has terms, the index is there)


UNMATCHED = (
    "no premise shares a word with the query and no claim is similar to it: the premises shown "
    "are only the nearest in meaning, and may be unrelated"
)


def direct_hits(
    reader: CandidateReader,
    text: str,
    vector: NDArray[np.float32],
    collection: str | None,
    notes: list[str],
) -> DirectHits:
    """BM25 and vector-index hits over premises (of ``collection`` only, when given); a missing
    index leaves its route empty and adds a note to ``notes``."""
    from argkb.retrieve.lucene import lucene_query
    from argkb.retrieve.routes import read_if_available, unless_index_missing

    s = reader.settings
    widen = 1 if collection is None else s.collection_widen
    terms = lucene_query(text)
    if terms and s.bm25_depth > 0 and s.vector_depth > 0:  # both routes in one query
        columns = read_if_available(
            lambda: cypher.read_columns(
                reader.driver, "query/premises_routes", database=reader.database, text=terms,
                bm25_k=s.bm25_depth, bm25_fetch=s.bm25_depth * widen, vector_k=s.vector_depth,
                vector_fetch=s.vector_depth * widen, collection=collection,
                vector=[float(x) for x in vector],
            ),
            reader.driver, ["premise_text", "premise_embedding"], reader.database,
        )  # fmt: skip
        if columns is not None:
            return DirectHits(
                dict(zip(columns["bm25_id"], map(float, columns["bm25_score"]), strict=True)),
                {p: cypher.cosine(float(v))
                 for p, v in zip(columns["vector_id"], columns["vector_score"], strict=True)},
            )  # fmt: skip
    # one route at a time: a missing index then leaves only its own route out
    noted = len(notes)
    bm25 = (
        unless_index_missing(
            lambda: cypher.read_scores(reader.driver, "query/premises_bm25",
                                       database=reader.database, text=terms, k=s.bm25_depth,
                                       fetch=s.bm25_depth * widen, collection=collection),
            "premise_text", notes, reader.driver, reader.database)
        if terms and s.bm25_depth > 0 else {}
    )  # fmt: skip
    searched = bool(terms) and s.bm25_depth > 0 and len(notes) == noted
    cosine = (
        {p: cypher.cosine(v)
         for p, v in unless_index_missing(
             lambda: cypher.read_scores(reader.driver, "query/premises_vector",
                                        database=reader.database, k=s.vector_depth,
                                        fetch=s.vector_depth * widen, collection=collection,
                                        vector=[float(x) for x in vector]),
             "premise_embedding", notes, reader.driver, reader.database).items()}
        if s.vector_depth > 0 else {}
    )  # fmt: skip
    return DirectHits(bm25, cosine, searched)


def _hits_noted(
    reader: CandidateReader,
    text: str,
    vector: NDArray[np.float32],
    collection: str | None,
    claims_credited: bool,
    notes: list[str] | None,
    hits: DirectHits | None,
) -> DirectHits:
    """``hits``, read by :func:`direct_hits` when the caller has not; with :data:`UNMATCHED` in
    ``notes`` when BM25 found nothing and no claim was credited (nothing matches the query)."""
    notes = notes if notes is not None else []
    if hits is None:
        hits = direct_hits(reader, text, vector, collection, notes)
    if hits.searched and not hits.bm25 and not claims_credited:
        notes.append(UNMATCHED)
    return hits


def _top(scores: dict[int, float], allowed: set[int], depth: int) -> dict[int, float]:
    kept = sorted(((v, p) for p, v in scores.items() if p in allowed), key=lambda t: (-t[0], t[1]))
    return {p: v for v, p in kept[:depth]}


def side_pools(
    reader: CandidateReader,
    text: str,
    vector: NDArray[np.float32],
    p_cluster: dict[str, float],
    claim_cluster: dict[int, str],
    collection: str | None,
    wanted: tuple[str, ...],
    notes: list[str] | None = None,
    hits: DirectHits | None = None,
) -> tuple[dict[str, SidePool], Candidates | None]:
    """The candidates of every wanted side, with each route's evidence; and their edges.

    ``p_cluster`` is P(gamma|q) of each claim cluster the claim route credits (empty when no claim
    was similar enough) and ``claim_cluster`` the cluster name of each claim in them. ``hits``:
    the direct routes' hits when the caller has read them already (the engine reads them while
    the claim route runs). A route whose index is missing adds a note to ``notes``.
    """
    import numpy as np

    from argkb.retrieve.pfidf import cluster_scores

    s = reader.settings
    # the alignment's inputs for every claim of the retrieved clusters, read meanwhile
    prefetch = (
        reader.executor().submit(reader.alignment_ahead, text, vector, p_cluster, claim_cluster)
        if claim_cluster and reader.alignment is not always_aligned else None
    )  # fmt: skip
    hits = _hits_noted(reader, text, vector, collection, bool(p_cluster), notes, hits)
    read = _read_edges(reader, vector, claim_cluster, hits, collection)
    if read is None:
        return {}, None
    edges, per_premise = read
    claim_p = reader.share_claim_mass(p_cluster, claim_cluster, edges)
    candidates = reader.edge_arrays(edges, claim_p, claim_cluster)
    if len(candidates.premise) == 0:
        return {}, None
    terms = reader.pfidf_terms(candidates)
    aligned = reader.aligned(text, vector, candidates,
                             prefetch.result() if prefetch is not None else None)  # fmt: skip
    present = {int(p) for p in candidates.premise.tolist()}
    bm25 = _top(hits.bm25, present, s.bm25_depth)
    cosine_hits = _top(hits.cosine, present, s.vector_depth)
    claim_score = per_premise.claim_scores(candidates.claim)
    scores = cluster_scores(candidates.premise_cluster, candidates.pro, terms, aligned)
    cluster_index = {int(c): i for i, c in enumerate(scores.clusters.tolist())}
    # the side of each edge towards the query, and which edges decide a premise's side
    side_pro = candidates.side_pro(aligned)
    deciding = _deciding_edges(candidates)
    columns = per_premise.arrange(edges, candidates, present, s.cluster_max_words)

    bm25_max = max(bm25.values(), default=0.0)
    pools: dict[str, SidePool] = {}
    for side in wanted:
        this_side = side_pro == (side == "pro")
        members = candidates.by_key({int(p) for p in candidates.premise[deciding & this_side]})
        if not members:
            continue
        rows = np.asarray([columns.position[p] for p in members])
        own = columns.per_premise(np.where(this_side, terms.contribution, 0.0), np.add)
        claim_cos = columns.per_premise(np.where(this_side, claim_score, 0.0), np.maximum)
        side_scores = scores.pro if side == "pro" else scores.con
        pools[side] = SidePool(
            premises=members,
            labels=columns.group_of[rows],
            cluster_p=np.asarray(
                [side_scores[cluster_index[int(c)]] for c in columns.cluster_of[rows]]
            ),
            own=own[rows],
            bm25=np.asarray([bm25.get(p, 0.0) for p in members]),
            found_bm25=np.asarray([p in bm25 for p in members]),
            cosine=columns.cosine[rows],
            vector_hit=np.asarray([p in cosine_hits for p in members]),
            words=columns.words[rows],
            argument=columns.argument[rows] if columns.argument is not None else None,
            claim_cos=claim_cos[rows],
            bm25_max=bm25_max,
        )
    return pools, candidates


def _deciding_edges(candidates: Candidates) -> NDArray[np.bool_]:
    """The edges that decide a premise's side: those the claim route credits, or all of a
    premise's edges when none of them is credited (a premise found only directly)."""
    import numpy as np

    credited = candidates.p_claim > 0
    has_credit: dict[int, bool] = defaultdict(bool)
    for p, c in zip(candidates.premise.tolist(), credited.tolist(), strict=True):
        has_credit[p] |= c
    return credited | ~np.asarray([has_credit[p] for p in candidates.premise.tolist()])


@dataclass(frozen=True)
class _EdgeExtras:
    """What ``query/premise_edges`` says of each edge's premise beyond the edge itself: its
    similarity to the query, its word count and the argumentativeness projection (repeated on
    every edge of the premise)."""

    score: list[float]
    words: list[int]
    prior_projection: list[float | None]
    prior: Any  # argkb.retrieve.argument_prior.ArgumentPrior, or None when not asked for
    claim_score: dict[int, float]  # claim (internal id) -> its cosine to the query

    def claim_scores(self, claims: NDArray[np.int64]) -> NDArray[np.float64]:
        """The cosine to the query of each edge's claim (0 for a claim without one)."""
        import numpy as np

        return np.asarray([self.claim_score.get(c, 0.0) for c in claims.tolist()], np.float64)

    def arrange(
        self, edges: EdgeColumns, candidates: Candidates, present: set[int], alone: int | None
    ) -> _Columns:
        """The candidates' evidence as arrays over the premises in key order. A premise of more
        than ``alone`` words gets a cluster label of its own (named ``alone:<key>`` in
        ``candidates.cluster_names``); its claim-route evidence stays its cluster's."""
        import numpy as np

        premises = np.asarray(candidates.by_key(present), dtype=np.int64)
        # a premise's score and words repeat on each of its edges: any of its edges will do
        row_of = {int(p): i for i, p in enumerate(edges.premise)}
        order = np.asarray([row_of[int(p)] for p in premises.tolist()], np.int64)
        similarity = np.asarray(self.score, np.float64)[order]
        words = np.asarray(self.words, np.int64)[order]
        argument = (
            self.prior.logits(np.asarray(self.prior_projection, np.float64)[order], words)
            if self.prior is not None else None
        )  # fmt: skip
        position = {int(p): i for i, p in enumerate(premises.tolist())}
        edge_position = [position[int(p)] for p in candidates.premise.tolist()]
        cluster_of = np.empty(len(premises), np.int64)
        cluster_of[edge_position] = candidates.premise_cluster
        group_of = cluster_of.copy()
        if alone is not None:
            for index in np.flatnonzero(words > alone).tolist():
                group_of[index] = len(candidates.cluster_names)
                candidates.cluster_names.append(f"alone:{candidates.key_of[int(premises[index])]}")
        return _Columns(position, edge_position, cluster_of, group_of,
                        np.where(similarity >= 0.0, cypher.cosine(similarity), 0.0), words,
                        argument)  # fmt: skip


@dataclass(frozen=True)
class _Columns:
    """Per candidate premise (in key order): its position, each edge's premise position, and by
    position its premise cluster, the label it is shown under, exact cosine, word count and
    prior logit."""

    position: dict[int, int]
    edge_position: list[int]
    cluster_of: NDArray[np.int64]
    group_of: NDArray[np.int64]  # the label a premise is shown under (its cluster, or its own)
    cosine: NDArray[np.float64]
    words: NDArray[np.int64]
    argument: NDArray[np.float64] | None

    def per_premise(self, edge_values: NDArray[np.float64], ufunc: Any) -> NDArray[np.float64]:
        """Edge values gathered per premise position by ``ufunc`` (np.add: their sum;
        np.maximum: the largest, at least 0)."""
        import numpy as np

        out = np.zeros(len(self.position))
        ufunc.at(out, self.edge_position, edge_values)
        return out


def _read_edges(
    reader: CandidateReader,
    vector: NDArray[np.float32],
    claim_cluster: dict[int, str],
    hits: DirectHits,
    collection: str | None,
) -> tuple[EdgeColumns, _EdgeExtras] | None:
    """Every argument of every candidate (the claim route's premises and the direct hits), with
    each candidate's cosine and word count computed on the server (no embedding travels back);
    None when there is no candidate edge."""
    from argkb.retrieve import argument_prior

    claims, ids = sorted(claim_cluster), sorted(set(hits.bm25) | set(hits.cosine))
    s = reader.settings
    wants_prior = s.weight_argument > 0 or (s.fusion == "linear" and s.linear_argument > 0)
    prior = argument_prior.load() if wants_prior else None
    columns = cypher.read_columns(reader.driver, "query/premise_edges", database=reader.database,
                                  claims=claims, ids=ids, collection=collection,
                                  vector=[float(x) for x in vector],
                                  argument=list(prior.direction) if prior else None)  # fmt: skip
    claim_score = {
        int(c): cypher.cosine(float(v)) if v >= 0.0 else 0.0
        for c, v in zip(columns["claim"], columns.pop("claim_score"), strict=True)
    }
    extras = _EdgeExtras(columns.pop("score"), columns.pop("words"), columns.pop("prior"), prior,
                         claim_score)  # fmt: skip
    edges = EdgeColumns(**columns)
    if not len(edges):
        return None
    return edges, extras


class HybridRanker:
    """``ranker="hybrid"``: the claim route and the two direct premise routes, fused."""

    name = "hybrid"
    needs_claims = False
    picks_representative = True
    nothing_found = (
        "Nothing in the graph matches this query: no premise shares its words or is "
        "near its meaning on either side (has 'argkb embed' run? premises whose stance the "
        "data left unknown count once 'argkb stance' has run)."
    )
    explains_claims = False

    def start(self, reader: CandidateReader, context: QueryContext) -> Future[Any] | None:
        """The direct routes need no claims: they are read while the claims are retrieved."""
        return reader.executor().submit(direct_hits, reader, context.text, context.vector,
                                    context.collection, context.notes)  # fmt: skip

    def gather(self, reader: CandidateReader, context: QueryContext) -> Gathered:
        """The candidates of every wanted side with each route's evidence (the side pools)."""
        pools, candidates = side_pools(reader, context.text, context.vector, context.p_cluster,
                                       context.claim_cluster, context.collection, context.wanted,
                                       context.notes, context.early)  # fmt: skip
        return Gathered(candidates, pools)

    def rank(
        self, reader: CandidateReader, context: QueryContext, gathered: Gathered
    ) -> dict[str, list[Ranked]]:
        """Per side, at most ``k`` entries best first."""
        s = reader.settings
        representative = "longest" if s.representative == "longest" else "best"
        ranked: dict[str, list[Ranked]] = {side: [] for side in context.wanted}
        candidates = gathered.candidates
        assert candidates is not None
        for side, pool in gathered.state.items():
            ranked[side] = [
                Ranked(entry.score, [pool.premises[i] for i in entry.members], entry.label,
                       {"cluster": candidates.cluster_names[entry.label], **entry.explain})
                for entry in fuse_pool(pool, Fusion.of(s), context.k, representative)
            ]  # fmt: skip
        return ranked

    def describe(
        self,
        stance: str,
        entry: Ranked,
        gathered: Gathered,
        representative: Member,
        claim_text: dict[int, str],
    ) -> dict[str, Any]:
        """Each route's rank and contribution, the cluster's fused score and the head's
        evidence (:func:`fuse_pool`)."""
        return {"pagerank": representative.pagerank, **(entry.explain or {})}
