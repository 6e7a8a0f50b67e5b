"""The pf-icf ranker of Dumani et al. (ECIR 2020, Eq. 2-5): premise clusters by P(pi^s|q).

Candidates are the premises of the claims similar to the query (the claim route alone). A
premise cluster's score on a side is the claim mass its edges carry, weighed by how often the
cluster is used for a claim (pf) and how specific it is to few claim clusters (icf); the
arithmetic is :mod:`argkb.retrieve.pfidf`.
"""

from __future__ import annotations

from collections import defaultdict
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from argkb.query.rankers.base import Gathered, QueryContext
from argkb.query.types import Member, Ranked

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from argkb.query.candidates import CandidateReader, Candidates
    from argkb.retrieve.pfidf import EdgeTerms


@dataclass(frozen=True)
class ClaimRouteState:
    """What the pfidf and coreset rankers keep of their candidate edges: the pf-icf terms, P(q
    aligned c) of each edge's claim, and each edge's side towards the query (its stance,
    flipped where the claim opposes the query)."""

    terms: EdgeTerms
    aligned: NDArray[np.float64]
    side_pro: NDArray[np.bool_]


def gather_claim_route(reader: CandidateReader, context: QueryContext) -> Gathered:
    """The claim route's candidate edges with their pf-icf terms and sides (the pfidf and
    coreset rankers' candidates)."""
    candidates = reader.claim_route(context.p_cluster, context.claim_cluster, context.collection)
    if candidates is None:
        return Gathered(None)
    aligned = reader.aligned(context.text, context.vector, candidates)
    state = ClaimRouteState(reader.pfidf_terms(candidates), aligned, candidates.side_pro(aligned))
    return Gathered(candidates, state)


class ClaimRouteRanker:
    """What the rankers of the papers share: their candidates are the claim route's alone, so
    there is nothing to read before the claims and nothing to answer without them."""

    needs_claims = True
    nothing_found = (
        "The similar claims have no premises on either side (premises whose stance the data "
        "left unknown count once 'argkb stance' has run)."
    )

    def start(self, reader: CandidateReader, context: QueryContext) -> Future[Any] | None:
        return None

    def gather(self, reader: CandidateReader, context: QueryContext) -> Gathered:
        return gather_claim_route(reader, context)


class PfidfRanker(ClaimRouteRanker):
    """``ranker="pfidf"``: Dumani et al. 2020."""

    name = "pfidf"
    picks_representative = False
    explains_claims = True

    def rank(
        self, reader: CandidateReader, context: QueryContext, gathered: Gathered
    ) -> dict[str, list[Ranked]]:
        """Per stance: the premise clusters by P(pi^s|q), best first (label: cluster index)."""
        import numpy as np

        from argkb.retrieve.pfidf import cluster_scores

        candidates, state = gathered.candidates, gathered.state
        assert candidates is not None  # the engine ranks only what was gathered
        scores = cluster_scores(candidates.premise_cluster, candidates.pro, state.terms,
                                state.aligned)  # fmt: skip
        side_pro = state.side_pro
        ranked: dict[str, list[Ranked]] = {}
        for stance in context.wanted:
            values = scores.pro if stance == "pro" else scores.con
            order = np.lexsort((scores.clusters, -values))
            rows: list[Ranked] = []
            for index in order:
                if values[index] <= 0 or len(rows) == context.k:
                    break
                label = scores.clusters[index]
                in_cluster = candidates.premise_cluster == label
                side = in_cluster & (side_pro == (stance == "pro"))
                premises = candidates.by_key(set(candidates.premise[side].tolist()))
                if premises:  # a partly aligned claim can lend a side mass but no member
                    rows.append(Ranked(float(values[index]), premises, int(label)))
            ranked[stance] = rows
        return ranked

    def describe(
        self,
        stance: str,
        entry: Ranked,
        gathered: Gathered,
        representative: Member,
        claim_text: dict[int, str],
    ) -> dict[str, Any]:
        """The cluster's name and the (at most three) claims that contributed most, each with
        its P(c|q), pf, icf and P(p|c)."""
        assert gathered.candidates is not None
        detail: dict[str, Any] = {"pagerank": representative.pagerank}
        detail.update(
            claims_behind(stance, entry.label, gathered.candidates, gathered.state, claim_text)
        )
        return detail


def claims_behind(
    stance: str,
    label: int,
    candidates: Candidates,
    state: ClaimRouteState,
    claim_text: dict[int, str],
) -> dict[str, Any]:
    """``cluster`` and ``claims`` of a pf-icf explanation (see :meth:`PfidfRanker.describe`):
    the edges of the cluster on ``stance``'s side towards the query, as the entry's members."""
    import numpy as np

    terms = state.terms
    rows = np.flatnonzero(
        (candidates.premise_cluster == label) & (state.side_pro == (stance == "pro"))
    )
    by_claim: dict[int, list[int]] = defaultdict(list)
    for i in rows:
        by_claim[int(candidates.claim[i])].append(int(i))
    # one line per claim: its total contribution, with the pf/icf of its edges (equal within
    # a claim cluster and premise cluster, so the first edge speaks for all)
    lines = sorted(by_claim.items(), key=lambda kv: -terms.contribution[kv[1]].sum())[:3]
    return {
        "cluster": candidates.cluster_names[int(label)],
        "claims": [
            {"claim": claim_text.get(claim, ""), "p_claim": float(candidates.p_claim[edges[0]]),
             "pf": float(terms.pf[edges[0]]), "icf": float(terms.icf[edges[0]]),
             "p_premise_given_claim": float(terms.p_premise_given_claim[edges].sum()),
             "contribution": float(terms.contribution[edges].sum())}
            for claim, edges in lines
        ],
    }  # fmt: skip
