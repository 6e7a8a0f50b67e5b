"""What a ranker is: the :class:`Ranker` protocol and the :class:`QueryContext` it receives.

The engine (:mod:`argkb.query.engine`) embeds the query, retrieves the similar claims and their
claim clusters, and hands a ranker the :class:`QueryContext`. The ranker gathers its candidates
(:meth:`Ranker.gather`), ranks them per side (:meth:`Ranker.rank`) and says what placed an entry
(:meth:`Ranker.describe`); the engine materialises the entries into the answer. A new ranker is
one module with one class; register it in :data:`argkb.query.rankers.RANKERS`.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from argkb.query.candidates import CandidateReader, Candidates
    from argkb.query.types import Member, Ranked
    from argkb.retrieve.claims import RetrievedClaim


@dataclass
class QueryContext:
    """One query on its way through the engine: what every ranker may use.

    ``p_cluster``: P(gamma|q) of each claim cluster the claim route credits (empty when no claim
    was similar enough); ``claim_cluster``: the cluster name of every claim read of them;
    ``wanted``: the sides asked for; ``notes``: what the answer had to do without (a ranker adds
    to it); ``early``: the result of what :meth:`Ranker.start` began while the claims were
    retrieved (None if it began nothing).
    """

    text: str
    vector: NDArray[np.float32]
    k: int
    wanted: tuple[str, ...]
    collection: str | None = None
    claims: list[RetrievedClaim] = field(default_factory=list)
    p_cluster: dict[str, float] = field(default_factory=dict)
    claim_cluster: dict[int, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    early: Any = None


@dataclass
class Gathered:
    """A ranker's candidates: the edges (None: no candidate at all) and what the ranker keeps
    for :meth:`Ranker.rank` and :meth:`Ranker.describe` (pf-icf terms, side pools)."""

    candidates: Candidates | None
    state: Any = None


class Ranker(Protocol):
    """A way to rank a query's candidates into premise clusters per side.

    Attributes
    ----------
    name : str
        The ``ranker`` setting that selects it.
    needs_claims : bool
        Without a similar claim there is nothing to rank (the engine answers with a message).
    picks_representative : bool
        The first premise of each entry is its representative; else the engine picks one by the
        ``representative`` setting.
    nothing_found : str
        The message of an answer without candidates.
    explains_claims : bool
        :meth:`describe` names the claims behind an entry (the engine reads their texts).
    """

    name: str
    needs_claims: bool
    picks_representative: bool
    nothing_found: str
    explains_claims: bool

    def start(self, reader: CandidateReader, context: QueryContext) -> Future[Any] | None:
        """Reads that need no claims, begun while the claims are retrieved (or None)."""
        ...

    def gather(self, reader: CandidateReader, context: QueryContext) -> Gathered:
        """The candidate edges (and the ranker's own state for ranking them)."""
        ...

    def rank(
        self, reader: CandidateReader, context: QueryContext, gathered: Gathered
    ) -> dict[str, list[Ranked]]:
        """Per wanted side, at most ``context.k`` entries, best first."""
        ...

    def describe(
        self,
        stance: str,
        entry: Ranked,
        gathered: Gathered,
        representative: Member,
        claim_text: dict[int, str],
    ) -> dict[str, Any]:
        """What placed ``entry`` (``--explain``); ``claim_text`` is read only for rankers whose
        ``explains_claims`` is true."""
        ...
