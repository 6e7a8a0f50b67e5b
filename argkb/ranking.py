"""The types a ranker receives and returns: :class:`Query` and :class:`Ranking`.

They are shared by the retrievers (:mod:`argkb.retrieve`), the evaluation files and harness
(:mod:`argkb.eval`), and anything that plugs a ranker in; this module imports neither side.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, TypeAlias

__all__ = ["Query", "Ranking", "Stance"]

Stance: TypeAlias = Literal["pro", "con"]
"""A premise's stance towards a conclusion, or a wanted stance towards a query."""


@dataclass(frozen=True)
class Query:
    """One evaluation query, as a ranker receives it.

    Attributes
    ----------
    qid : str
        Query id, as in the topics and qrels files.
    text : str
        The query text (for ArgKP the topic, for Webis-ArgQuality-20 the topic's long query).
    stance : {"pro", "con"} or None
        Wanted stance of the results towards ``text``; None asks for both.
    collection : str or None
        Optional scope: a prefix of ``Source.sid`` naming the benchmark's documents (``argkp:dev:``,
        ``argquality:``). A ranker may restrict its candidates to premises of arguments
        ``-[:FROM]->`` such sources (the baselines do); results outside are scored as not relevant.
    """

    qid: str
    text: str
    stance: Stance | None = None
    collection: str | None = None


@dataclass(frozen=True, init=False)
class Ranking:
    """A ranked list of clusters of document ids; each cluster's first id is its representative.

    Task B scores the list of representatives, Task A the clusters (Dumani et al., ECIR 2020,
    sec. 6.2). A ranker that does not cluster returns singleton clusters
    (:meth:`from_ids`). For argkb's own rankers a document id is a ``Unit.uid``.

    Parameters
    ----------
    clusters : iterable of iterables of str
        Best cluster first; each cluster best document first.
    scores : iterable of float, optional
        One score per cluster (informative only; the order of ``clusters`` is the ranking).
    """

    clusters: tuple[tuple[str, ...], ...]
    scores: tuple[float, ...] | None

    def __init__(
        self, clusters: Iterable[Iterable[str]], scores: Iterable[float] | None = None
    ) -> None:
        frozen = tuple(tuple(str(doc) for doc in cluster) for cluster in clusters)
        if any(not cluster for cluster in frozen):
            raise ValueError("a ranking cannot contain an empty cluster")
        object.__setattr__(self, "clusters", frozen)
        score_tuple = None if scores is None else tuple(float(s) for s in scores)
        if score_tuple is not None and len(score_tuple) != len(frozen):
            raise ValueError(f"{len(score_tuple)} scores for {len(frozen)} clusters")
        object.__setattr__(self, "scores", score_tuple)

    @classmethod
    def from_ids(cls, ids: Iterable[str], scores: Iterable[float] | None = None) -> Ranking:
        """A ranking of singleton clusters (a ranker without clustering)."""
        return cls(((doc,) for doc in ids), scores)

    @property
    def representatives(self) -> list[str]:
        """The Task B list: the first document of every cluster."""
        return [cluster[0] for cluster in self.clusters]

    @property
    def documents(self) -> list[str]:
        """Every document in rank order (clusters in order, members in order)."""
        return [doc for cluster in self.clusters for doc in cluster]

    @property
    def clustered(self) -> bool:
        """True when some cluster has more than one document."""
        return any(len(cluster) > 1 for cluster in self.clusters)

    def deduplicated(self) -> Ranking:
        """The ranking without repeated documents: a document counts where it first appears.

        Later repeats are removed (trec_eval refuses them, and a repeat must not gain twice);
        clusters left empty are dropped with their scores.
        """
        seen: set[str] = set()
        clusters: list[tuple[str, ...]] = []
        scores: list[float] = []
        for i, cluster in enumerate(self.clusters):
            kept = tuple(doc for doc in dict.fromkeys(cluster) if doc not in seen)
            seen.update(kept)
            if kept:
                clusters.append(kept)
                if self.scores is not None:
                    scores.append(self.scores[i])
        return Ranking(clusters, scores if self.scores is not None else None)

    def head(self, k: int) -> Ranking:
        """The first ``k`` clusters."""
        return Ranking(self.clusters[:k], None if self.scores is None else self.scores[:k])
