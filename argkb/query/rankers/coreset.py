"""The coreset ranker of Fromm et al. (ECIR 2021, Algorithm 1): relevant and diverse premises.

Candidates are the claim route's premises of each side. The biased coreset
(:func:`argkb.retrieve.coreset.biased_coreset`) picks ``k`` of them trading relevance r(p|q)
against coverage of the rest (``coreset_alpha``); every candidate then joins its nearest pick,
which forms the clusters. r(p|q) is the learned relevance filter (fitted on ArgKP train,
:mod:`argkb.retrieve.relevance`), cosine to the query, or the pf-icf share.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from argkb.errors import QueryError
from argkb.query.rankers.base import Gathered, QueryContext
from argkb.query.rankers.pfidf import ClaimRouteRanker
from argkb.query.types import Member, Ranked

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from argkb.query.candidates import CandidateReader, Candidates
    from argkb.query.rankers.pfidf import ClaimRouteState
    from argkb.retrieve.relevance import RelevanceModel


@dataclass
class CoresetPool:
    """The candidate premises of one stance, for the coreset ranker (arrays aligned by premise)."""

    premises: list[int]
    keys: list[str]  # Unit.uid of each premise
    cosine: NDArray[np.float64]  # to the query
    similarity: NDArray[np.float64]  # premise x premise cosine
    claim_mass: NDArray[np.float64]  # sum of P(c|q) over the claims the premise is used for
    pfidf: NDArray[np.float64]  # the premise's summed pf-icf contribution
    words: NDArray[np.int64]


class CoresetRanker(ClaimRouteRanker):
    """``ranker="coreset"``: Fromm et al. 2021."""

    name = "coreset"
    picks_representative = True
    explains_claims = False

    def __init__(self) -> None:
        self._model: RelevanceModel | None = None

    def rank(
        self, reader: CandidateReader, context: QueryContext, gathered: Gathered
    ) -> dict[str, list[Ranked]]:
        """Per stance, the ``k`` premises the coreset picks (each with the candidates nearest
        it, the pick first), in the order picked."""
        import numpy as np

        from argkb.retrieve.coreset import assign_to_nearest, biased_coreset

        assert gathered.candidates is not None
        ranked: dict[str, list[Ranked]] = {}
        for stance in context.wanted:
            pool = self.pool(reader, gathered.candidates, gathered.state, context.vector, stance)
            if pool is None:
                ranked[stance] = []
                continue
            relevance = self.relevance(reader, pool)
            chosen, gains = biased_coreset(relevance, pool.similarity, context.k,
                                           reader.settings.coreset_alpha)  # fmt: skip
            owner = assign_to_nearest(pool.similarity, chosen)
            rows = []
            for position, index in enumerate(chosen):
                group = [pool.premises[i] for i in np.flatnonzero(owner == position)]
                rep = pool.premises[int(index)]
                group = [rep] + [p for p in group if p != rep]
                why = {"coreset": {
                    "gain": float(gains[position]),  # what picking it added (Algorithm 1)
                    "relevance": float(relevance[index]),
                    "relevance_by": reader.settings.coreset_relevance,
                    "cosine": float(pool.cosine[index]),
                    "claim_mass": float(pool.claim_mass[index]),  # sum of P(c|q), its claims
                    "members": len(group),  # candidates nearest this pick
                    "pool": len(pool.premises),  # candidates of this side
                }}  # fmt: skip
                rows.append(Ranked(float(gains[position]), group, rep, why))
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
        """The pick's PageRank and why the coreset took it: its marginal gain, its relevance
        r(p|q) (and by which scorer), its cosine and claim mass, and how many candidates of
        the side's pool it stands for."""
        return {"pagerank": representative.pagerank, **(entry.explain or {})}

    def pool(
        self,
        reader: CandidateReader,
        candidates: Candidates,
        state: ClaimRouteState,
        vector: NDArray[np.float32],
        stance: str,
    ) -> CoresetPool | None:
        """The candidate premises of one stance with what the relevance scorers need."""
        import numpy as np

        # an edge's side towards the query: its stance, flipped where the claim opposes it
        side = state.side_pro == (stance == "pro")
        mass: dict[int, float] = defaultdict(float)
        share: dict[int, float] = defaultdict(float)
        for p, value, part in zip(candidates.premise[side], candidates.p_claim[side],
                                  state.terms.contribution[side], strict=True):  # fmt: skip
            mass[int(p)] += float(value)
            share[int(p)] += float(part)
        # relevance filter (Fromm et al., Sec. 3.1): keep premises whose claims carry at
        # least `coreset_filter` of the best premise's claim mass P(c|q)
        floor = reader.settings.coreset_filter * max(mass.values(), default=0.0)
        premises = candidates.by_key({p for p, m in mass.items() if m >= floor})
        if not premises:
            return None
        rows = {r["id"]: r for r in reader.read("query/units", ids=premises, vectors=True)}
        dims = reader.embedder.dimensions
        vectors = np.asarray(
            [rows[i]["embedding"] or [0.0] * dims for i in premises], dtype=np.float32
        )
        return CoresetPool(
            premises=premises,
            keys=[rows[p]["key"] for p in premises],
            cosine=(vectors @ vector).astype(np.float64),
            similarity=(vectors @ vectors.T).astype(np.float64),
            claim_mass=np.asarray([mass[p] for p in premises]),
            pfidf=np.asarray([share[p] for p in premises]),
            words=np.asarray([len((rows[p]["text"] or "").split()) for p in premises]),
        )

    def relevance(self, reader: CandidateReader, pool: CoresetPool) -> NDArray[np.float64]:
        """r(p|q) of each pooled premise, by the ``coreset_relevance`` setting."""
        from argkb.retrieve.relevance import premise_features

        choice = reader.settings.coreset_relevance
        if choice == "cosine":
            return pool.cosine
        if choice == "pfidf":
            top = pool.pfidf.max()
            return pool.pfidf / top if top > 0 else pool.pfidf
        if choice == "learned":
            features = premise_features(
                pool.cosine, pool.claim_mass, pool.similarity, pool.pfidf, pool.words,
                same_within=1.0 - reader.settings.premise_cut,
            )  # fmt: skip
            return self._relevance_model().score(features)
        raise QueryError(f"unknown coreset relevance {choice!r}: use learned, cosine or pfidf")

    def _relevance_model(self) -> RelevanceModel:
        if self._model is None:
            from argkb.retrieve.relevance import RelevanceModel

            self._model = RelevanceModel.load()
        return self._model
