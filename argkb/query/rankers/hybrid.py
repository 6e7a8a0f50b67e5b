"""The hybrid ranker: candidates from three routes, fused by reciprocal rank, one per cluster.

Candidate premises come from (i) the claim route of Dumani et al. (premises of the claims most
similar to the query, :mod:`argkb.retrieve.claims`), (ii) BM25 over premise texts and (iii) the
premise vector index, each with its own depth (settings ``bm25_depth``, ``vector_depth``). So a
relevant premise whose own conclusion is worded unlike the query is still seen. The candidates of
each side (pro, con towards the query) are then scored by :mod:`argkb.retrieve.fusion`, and the
best premise of each premise cluster shows it. Two fusions (setting ``fusion``):

* ``linear`` (the default): a weighted sum of each premise's features (:func:`premise_features`:
  BM25 over the query's best, cosine to the query, cosine of its best conclusion on that side,
  its cluster's claim-route share, length, the argumentativeness prior); a cluster scores as its
  best member. The claim route
  lends credit in proportion to how well a conclusion matches the query, so a graph whose
  conclusions are debate titles ("Death penalty") gives no premise an oracle's credit.
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
from argkb.query.settings import QuerySettings
from argkb.query.types import Member, Ranked

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from argkb.query.candidates import CandidateReader, Candidates

ROUTES = ("claims", "bm25", "cosine")


@dataclass(frozen=True)
class DirectHits:
    """Premises found by the two direct routes: internal id -> the route's score."""

    bm25: dict[int, float]
    cosine: dict[int, float]


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
    from argkb.retrieve.routes import route_failed_for_index, unless_index_missing

    s = reader.settings
    widen = 1 if collection is None else s.collection_widen
    terms = lucene_query(text)
    if terms and s.bm25_depth > 0 and s.vector_depth > 0:  # both routes in one query
        try:
            columns = cypher.read_columns(
                reader.driver, "query/premises_routes", database=reader.database, text=terms,
                bm25_k=s.bm25_depth, bm25_fetch=s.bm25_depth * widen, vector_k=s.vector_depth,
                vector_fetch=s.vector_depth * widen, collection=collection,
                vector=[float(x) for x in vector],
            )  # fmt: skip
        except Exception as err:
            both = ["premise_text", "premise_embedding"]
            if not route_failed_for_index(err, reader.driver, both, reader.database):
                raise
        else:
            return DirectHits(
                dict(zip(columns["bm25_id"], map(float, columns["bm25_score"]), strict=True)),
                {p: 2.0 * float(v) - 1.0
                 for p, v in zip(columns["vector_id"], columns["vector_score"], strict=True)},
            )  # fmt: skip
    # one route at a time: a missing index then leaves only its own route out
    bm25 = (
        unless_index_missing(
            lambda: cypher.read_scores(reader.driver, "query/premises_bm25",
                                       database=reader.database, text=terms, k=s.bm25_depth,
                                       fetch=s.bm25_depth * widen, collection=collection),
            "premise_text", notes, reader.driver, reader.database)
        if terms and s.bm25_depth > 0 else {}
    )  # fmt: skip
    cosine = (
        {p: 2.0 * v - 1.0
         for p, v in unless_index_missing(
             lambda: cypher.read_scores(reader.driver, "query/premises_vector",
                                        database=reader.database, k=s.vector_depth,
                                        fetch=s.vector_depth * widen, collection=collection,
                                        vector=[float(x) for x in vector]),
             "premise_embedding", notes, reader.driver, reader.database).items()}
        if s.vector_depth > 0 else {}
    )  # fmt: skip
    return DirectHits(bm25, cosine)


def _top(scores: dict[int, float], allowed: set[int], depth: int) -> dict[int, float]:
    kept = sorted(((v, p) for p, v in scores.items() if p in allowed), key=lambda t: (-t[0], t[1]))
    return {p: v for v, p in kept[:depth]}


@dataclass(frozen=True)
class SidePool:
    """What the routes know of the candidates on one side (arrays aligned by candidate)."""

    premises: list[int]  # internal ids
    labels: NDArray[np.int64]  # premise-cluster label
    cluster_p: NDArray[np.float64]  # P(pi^s|q) of the candidate's cluster (Eq. 3)
    own: NDArray[np.float64]  # P(p^s|q), the candidate's own share; 0: not via a claim
    bm25: NDArray[np.float64]  # BM25 score for the query; 0 where the route did not find it
    found_bm25: NDArray[np.bool_]
    cosine: NDArray[np.float64]  # cosine to the query
    vector_hit: NDArray[np.bool_]  # among the vector route's hits
    words: NDArray[np.int64]  # text length, for the "longest" representative
    # the argumentativeness prior's logit (argkb.retrieve.argument_prior); None: not asked for
    argument: NDArray[np.float64] | None = None
    # cosine of the query with the most similar conclusion the premise serves on this side
    # (0 where no conclusion has an embedding); None in pools recorded before it existed
    claim_cos: NDArray[np.float64] | None = None
    bm25_max: float = 0.0  # the best BM25 of any candidate of the query (both sides)


@dataclass(frozen=True)
class Fusion:
    """The route weights and RRF constant of the hybrid ranker; the defaults are the settings'
    (:class:`~argkb.query.settings.QuerySettings` ``weight_*`` and ``rrf_k``)."""

    claims: float
    bm25: float
    cosine: float
    rrf_k: float
    argument: float = 0.0  # weight of the argumentativeness route (needs SidePool.argument)
    # feature -> weight of the linear fusion (premise_features); None: reciprocal rank fusion
    linear: dict[str, float] | None = None

    @classmethod
    def of(cls, s: QuerySettings) -> Fusion:
        """The fusion the settings ``s`` ask for."""
        linear = (
            {"bm25": s.linear_bm25, "cosine": s.linear_cosine, "claim": s.linear_claim,
             "support": s.linear_support, "length": s.linear_length,
             "argument": s.linear_argument}
            if s.fusion == "linear" else None
        )  # fmt: skip
        return cls(s.weight_claims, s.weight_bm25, s.weight_cosine, s.rrf_k, s.weight_argument,
                   linear)  # fmt: skip

    def weights(self) -> dict[str, float]:
        weights = {"claims": self.claims, "bm25": self.bm25, "cosine": self.cosine}
        if self.argument:
            weights["argument"] = self.argument
        return weights


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
        reader.pool().submit(reader.alignment_inputs, sorted(claim_cluster), vector)
        if claim_cluster and reader.alignment is not always_aligned else None
    )  # fmt: skip
    if hits is None:
        hits = direct_hits(reader, text, vector, collection, notes if notes is not None else [])
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
    claim_score = np.asarray([per_premise.claim_score.get(int(c), 0.0)
                              for c in candidates.claim.tolist()], np.float64)  # fmt: skip
    scores = cluster_scores(candidates.premise_cluster, candidates.pro, terms, aligned)
    cluster_index = {int(c): i for i, c in enumerate(scores.clusters.tolist())}
    # the side of each edge towards the query, and which edges decide a premise's side
    side_pro = candidates.pro == (aligned >= 0.5)
    deciding = _deciding_edges(candidates)
    columns = per_premise.arrange(edges, candidates, present, s.cluster_max_words)

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
            bm25_max=max(bm25.values(), default=0.0),
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
                        np.where(similarity >= 0.0, 2.0 * similarity - 1.0, 0.0), words,
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
        int(c): 2.0 * float(v) - 1.0 if v >= 0.0 else 0.0
        for c, v in zip(columns["claim"], columns.pop("claim_score"), strict=True)
    }
    extras = _EdgeExtras(columns.pop("score"), columns.pop("words"), columns.pop("prior"), prior,
                         claim_score)  # fmt: skip
    edges = EdgeColumns(**columns)
    if not len(edges):
        return None
    return edges, extras


@dataclass(frozen=True)
class Entry:
    """One entry of a fused list: candidate indices into the pool, best first."""

    score: float
    members: list[int]
    label: int
    explain: dict[str, Any]


def premise_ranks(pool: SidePool) -> dict[str, NDArray[np.int64]]:
    """Each route's 1-based rank of every candidate in the pool (0 where it did not find it):
    ``claims`` by P(pi^s|q) then P(p^s|q), ``bm25`` by score, ``cosine`` over every candidate."""
    from argkb.retrieve.fusion import ranks_by

    ranks = {
        "claims": ranks_by(pool.cluster_p, pool.own, found=pool.own > 0),
        "bm25": ranks_by(pool.bm25, found=pool.found_bm25),
        "cosine": ranks_by(pool.cosine),
    }
    if pool.argument is not None:
        ranks["argument"] = ranks_by(pool.argument)
    return ranks


def premise_features(pool: SidePool) -> dict[str, NDArray[np.float64]]:
    """Each candidate's features for the linear fusion, each about 0 to 1: ``bm25`` over the
    query's best BM25, ``cosine`` to the query, ``claim`` the cosine of its best conclusion on
    this side, ``support`` its cluster's claim-route share P(pi^s|q) over the side's largest
    (0 where no similar claim lent it mass), ``length`` log(1 + words) / log(101), and
    ``argument`` the prior's probability when the pool has it."""
    import numpy as np

    n = len(pool.premises)
    support = pool.cluster_p * (pool.own > 0)
    top = float(support.max()) if n else 0.0
    features = {
        "bm25": pool.bm25 / pool.bm25_max if pool.bm25_max > 0 else np.zeros(n),
        "cosine": np.asarray(pool.cosine, np.float64),
        "claim": pool.claim_cos if pool.claim_cos is not None else np.zeros(n),
        "support": support / top if top > 0 else np.zeros(n),
        "length": np.log1p(np.maximum(pool.words, 0)) / np.log(101.0),
    }
    if pool.argument is not None:
        features["argument"] = 1.0 / (1.0 + np.exp(-pool.argument))
    return features


@dataclass(frozen=True)
class _Scored:
    """A pool fused: each candidate's score, each label's score, and per label what explains
    it (route or feature -> rank of the label's value and its contribution)."""

    fused: NDArray[np.float64]
    by_label: dict[int, float]
    explain: dict[int, dict[str, dict[str, float]]]


def _rrf_scored(pool: SidePool, fusion: Fusion, names: Any, member_of: Any) -> _Scored:
    """Premises ranked by each route and fused; clusters by the same fusion over cluster-level
    route scores: P(pi^s|q), and the best BM25 and cosine of any member."""
    import numpy as np

    from argkb.retrieve.fusion import ranks_by, reciprocal_rank_fusion

    weights = fusion.weights()
    via_claim = pool.own > 0
    fused = reciprocal_rank_fusion(premise_ranks(pool), weights, k=fusion.rrf_k)
    best_bm25 = np.zeros(len(names))
    np.maximum.at(best_bm25, member_of, pool.bm25)
    best_cos = np.full(len(names), -np.inf)
    np.maximum.at(best_cos, member_of, pool.cosine)
    p_of_cluster = np.zeros(len(names))
    np.maximum.at(p_of_cluster, member_of, pool.cluster_p * via_claim)
    found_bm25 = np.zeros(len(names), bool)
    np.logical_or.at(found_bm25, member_of, pool.found_bm25)
    cluster_ranks = {
        "claims": ranks_by(p_of_cluster, found=p_of_cluster > 0),
        "bm25": ranks_by(best_bm25, found=found_bm25),
        "cosine": ranks_by(best_cos),
    }
    if pool.argument is not None and "argument" in weights:
        best_argument = np.zeros(len(names))
        np.maximum.at(best_argument, member_of, pool.argument)
        cluster_ranks["argument"] = ranks_by(best_argument)
    cluster_fused = reciprocal_rank_fusion(cluster_ranks, weights, k=fusion.rrf_k)
    explain = {
        int(label): {
            route: {"rank": int(ranks[c]),
                    "contribution": float(weights[route] / (fusion.rrf_k + ranks[c])
                                          if ranks[c] > 0 else 0.0)}
            for route, ranks in cluster_ranks.items()
        }
        for c, label in enumerate(names.tolist())
    }  # fmt: skip
    return _Scored(fused, dict(zip(names.tolist(), cluster_fused.tolist(), strict=True)), explain)


def _linear_scored(pool: SidePool, fusion: Fusion, names: Any, member_of: Any) -> _Scored:
    """Each premise scored by :func:`~argkb.retrieve.fusion.linear_fusion` of its features; a
    label scored by its best member, whose features explain it (rank: the member's rank among
    the side's candidates by that feature)."""
    import numpy as np

    from argkb.retrieve.fusion import linear_fusion, ranks_by

    assert fusion.linear is not None
    features = premise_features(pool)
    fused = linear_fusion(features, fusion.linear)
    best = np.full(len(names), -1)
    order = np.lexsort((np.arange(len(fused)), -fused))  # best first, ties by position
    for i in order[::-1].tolist():
        best[member_of[i]] = i
    ranks = {name: ranks_by(values) for name, values in features.items()
             if fusion.linear.get(name, 0.0)}  # fmt: skip
    explain = {
        int(label): {
            name: {"rank": int(ranks[name][best[c]]), "value": float(features[name][best[c]]),
                   "contribution": float(fusion.linear[name] * features[name][best[c]])}
            for name in ranks
        }
        for c, label in enumerate(names.tolist())
    }  # fmt: skip
    by_label = {int(label): float(fused[best[c]]) for c, label in enumerate(names.tolist())}
    return _Scored(fused, by_label, explain)


def fuse_pool(pool: SidePool, fusion: Fusion, k: int, representative: str = "best") -> list[Entry]:
    """At most ``k`` entries of one side, best first (see the module docstring). Pure NumPy.

    ``representative``: ``"longest"`` shows each cluster by its longest member (Dumani et al.
    2020), chosen before members are shown on their own to fill the list; ``"best"`` by its
    best-fused member. An entry's first member is its representative.

    With reciprocal rank fusion (``fusion.linear`` None), premises are ranked by each route and
    fused (their order within a cluster, and the order of members shown on their own to fill
    the list); clusters are ranked by the same fusion over cluster-level route scores (Dumani
    et al. rank clusters, not premises). With the linear fusion a premise's score is the
    weighted sum of its features and a cluster's the score of its best member.
    """
    import numpy as np

    from argkb.retrieve.fusion import group_by_cluster

    names, member_of = np.unique(pool.labels, return_inverse=True)
    scored = (_rrf_scored if fusion.linear is None else _linear_scored)(
        pool, fusion, names, member_of
    )
    fused, by_label = scored.fused, scored.by_label
    entries: list[Entry] = []
    priority = pool.words if representative == "longest" else None
    for group in group_by_cluster(fused, pool.labels, k, by_label, priority):
        head = group.representative
        explain: dict[str, Any] = {
            "fused": by_label[group.label],
            "routes": scored.explain[group.label],
            "p_cluster": float(pool.cluster_p[head]),
            "bm25": float(pool.bm25[head]),
            "cosine": float(pool.cosine[head]),
            "vector_hit": bool(pool.vector_hit[head]),
            "promoted": len(entries) >= len(by_label),
        }
        score = by_label[group.label]
        if explain["promoted"]:  # a member shown on its own to fill the list: below every
            # cluster, in the order of its own fused score
            score = _promoted_score(by_label, fused, head, linear=fusion.linear is not None)
        entries.append(Entry(float(score), list(group.members), group.label, explain))
    return entries


def _promoted_score(
    by_label: dict[int, float], fused: NDArray[np.float64], head: int, *, linear: bool
) -> float:
    """The score of a member shown on its own to fill the list: below every cluster, in the
    order of its own fused score (RRF scores are positive, a linear sum need not be)."""
    lowest = min(by_label.values())
    if linear:
        return lowest - 1.0 - (float(fused.max()) - float(fused[head]))
    return lowest * 0.5 * float(fused[head]) / max(float(fused.max()), 1e-12)


class HybridRanker:
    """``ranker="hybrid"``: the claim route and the two direct premise routes, fused."""

    name = "hybrid"
    needs_claims = False
    picks_representative = True
    nothing_found = (
        "Nothing in the graph matches this query: no premise shares its words or is "
        "near its meaning (has 'argkb embed' run?)."
    )
    explains_claims = False

    def start(self, reader: CandidateReader, context: QueryContext) -> Future[Any] | None:
        """The direct routes need no claims: they are read while the claims are retrieved."""
        return reader.pool().submit(direct_hits, reader, context.text, context.vector,
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
