"""The query's reads from Neo4j and the candidate edges every ranker works on.

Stages 1-3 of the pipeline (Dumani et al., ECIR 2020, Sec. 4-5): the claims similar to the query
(:mod:`argkb.retrieve.claims`), their claim clusters gamma with P(gamma|q), and the candidate
edges premise -> claim with stance and premise cluster pi (:class:`Candidates`). Also what the
rankers ask of the graph on the way: the stance alignment's inputs, pf-icf terms, vectors.
Every Cypher statement the query engine runs is a named file under ``cypher/query/``.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from argkb.db import cypher
from argkb.query.alignment import CrossAlignment, StanceAlignment, always_aligned
from argkb.query.settings import QuerySettings
from argkb.retrieve.claims import RetrievedClaim, retrieve_claims

if TYPE_CHECKING:
    import neo4j
    import numpy as np
    from numpy.typing import NDArray

    from argkb.embed.model import Embedder
    from argkb.retrieve.pfidf import EdgeTerms


def own_cluster(unit: int) -> str:
    """The cluster name of an unclustered unit (internal id ``unit``): a cluster of its own,
    named so that it cannot be taken for a stored cluster's ``cid`` (``claim:N`` /
    ``premise:N``). Before 2026-11-27 an unclustered claim was named ``claim:<id>``, which
    merged it into the stored claim cluster of that number whenever the two met in one answer,
    so scores depended on the ids a load gave the nodes."""
    return f"unit:{unit}"


@dataclass(frozen=True)
class EdgeColumns:
    """Candidate edges premise -> claim as the edge queries answer them: parallel lists, one
    position per edge (``cypher/query/premises_of_claims.cypher``, ``premise_edges.cypher``;
    the latter adds each premise's ``score``, ``words``, ``prior`` (the argumentativeness
    prior's projection) and each claim's ``claim_score``, which the hybrid takes out first).

    The claim route's edges of a claim cluster are those whose claim is in it: every premise
    of such a claim is a candidate, so :meth:`CandidateReader.share_claim_mass` finds the claims
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
    def read(cls, reader: CandidateReader, name: str, **params: Any) -> EdgeColumns:
        return cls(**cypher.read_columns(reader.driver, name, database=reader.database, **params))

    def __len__(self) -> int:
        return len(self.premise)


class AlignmentInput(NamedTuple):
    """What an alignment estimator may read of one claim (:meth:`CandidateReader.alignment_inputs`):
    its text, its embedding contrast (None where not stored) and its similarity to the query."""

    text: str
    contrast: float | None
    near: float


@dataclass
class Candidates:
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

    def side_pro(self, aligned: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Each edge's side towards the query (True: pro): its stance, flipped where its claim
        opposes the query (``aligned``, P(q aligned c), below .5)."""
        return self.pro == (aligned >= 0.5)

    def by_key(self, premises: set[int]) -> list[int]:
        """``premises`` in the order of their unit keys: candidate order, and so every tie a
        ranker breaks by position, is the same whatever internal ids a reload gave them."""
        return sorted(premises, key=self.key_of.__getitem__)


class CandidateReader:
    """The graph as the rankers see it: one database, one embedder (for its dimensions), the
    query settings and the stance alignment; thread-safe (``argkb serve`` shares one)."""

    def __init__(
        self,
        driver: neo4j.Driver,
        embedder: Embedder,
        *,
        database: str | None,
        settings: QuerySettings,
        alignment: StanceAlignment,
        counts_ttl: float | None = None,
    ) -> None:
        """``counts_ttl``: seconds the graph's sizes (:meth:`counts`) are reused before they
        are read again; ``None``: for the reader's lifetime (one command, one graph). A
        long-lived engine shared by many requests (``argkb serve``) sets it, so that a corpus
        loaded meanwhile is counted."""
        self.driver = driver
        self.embedder = embedder
        self.database = database
        self.settings = settings
        self.alignment = alignment
        self.counts_ttl = counts_ttl
        self._counts: dict[str, int] | None = None
        self._counted_at = 0.0
        self._executor: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def executor(self) -> ThreadPoolExecutor:
        """Threads for reads that can overlap (the hybrid's direct routes and claim route)."""
        with self._lock:  # engines may be shared by request threads (argkb serve)
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=8,
                                                    thread_name_prefix="argkb-query")  # fmt: skip
            return self._executor

    def read(self, name: str, **params: Any) -> list[Any]:
        """The records of ``cypher/<name>.cypher`` with ``params``."""
        return cypher.read(self.driver, name, database=self.database, **params)

    def counts(self) -> dict[str, int]:
        """The graph's sizes and state (``cypher/query/counts.cypher``): ``claim_clusters``
        (|Gamma|), ``claims``, ``embedded`` (whether any unit has a vector), ``models`` (the
        embedding model of one such unit, a list of at most one), ``corpora_since_cluster`` and
        ``runs_interrupted``; reused for ``counts_ttl`` seconds."""
        now = time.monotonic()
        stale = self.counts_ttl is not None and now - self._counted_at > self.counts_ttl
        if self._counts is None or stale:
            self._counts = dict(self.read("query/counts")[0].data())
            self._counted_at = now
        return self._counts

    # -- stage 1: similar claims -----------------------------------------------------------------

    def similar_claims(
        self, text: str, vector: NDArray[np.float32], notes: list[str] | None = None
    ) -> list[RetrievedClaim]:
        """The claims most similar to the query with P(c|q) (:func:`retrieve_claims`)."""
        s = self.settings
        return retrieve_claims(
            self.driver, text, vector, database=self.database, k=s.claims_k, pool=s.claim_pool,
            weight=s.claim_weight, min_similarity=s.min_similarity,
            temperature=s.claim_temperature, notes=notes,
        )  # fmt: skip

    # -- stage 2 and 3: claim clusters and candidate premises ------------------------------------

    def cluster_rows(self, claims: list[RetrievedClaim], vector: NDArray[np.float32]) -> list[Any]:
        """Each retrieved claim's cluster and the claims of it that are read
        (``cypher/query/claim_clusters.cypher``, at most ``cluster_claims`` per cluster)."""
        cap = self.settings.cluster_claims
        return self.read("query/claim_clusters", ids=[c.id for c in claims],
                          vector=[float(x) for x in vector],
                          others=cap - 1 if cap > 0 else 2**31 - 1)  # fmt: skip

    def claim_mass(
        self, claims: list[RetrievedClaim], vector: NDArray[np.float32],
        rows: list[Any] | None = None,
    ) -> tuple[dict[str, float], dict[int, str]]:  # fmt: skip
        """P(gamma|q) per claim cluster name (the sum of its retrieved claims' P(c|q)), and the
        cluster name of every claim read of those clusters. ``rows``: the claims'
        :meth:`cluster_rows`, when the caller has read them already."""
        p_cluster: dict[str, float] = defaultdict(float)
        claim_p = {c.id: c.p for c in claims}
        cluster_of_claim: dict[int, str] = {}
        if rows is None:
            rows = self.cluster_rows(claims, vector)
        for row in rows:
            name = row["cluster"] or own_cluster(row["claim"])
            p_cluster[name] += claim_p[row["claim"]]
            for member in row["members"]:
                cluster_of_claim[member] = name
        return dict(p_cluster), cluster_of_claim

    @staticmethod
    def share_claim_mass(
        p_cluster: dict[str, float], cluster_of_claim: dict[int, str], edges: EdgeColumns
    ) -> dict[int, float]:
        """P(c|q) per claim: P(gamma|q) shared by the cluster's claims that have premises on a
        side (pro or con: a premise of unknown stance is no candidate, :meth:`edge_arrays`)."""
        with_premises: dict[str, set[int]] = defaultdict(set)
        placed = {c for c, s in zip(edges.claim, edges.stance, strict=True) if s in ("pro", "con")}
        for claim in placed:
            if claim in cluster_of_claim:
                with_premises[cluster_of_claim[claim]].add(claim)
        return {
            claim: p_cluster[name] / len(claims_in)
            for name, claims_in in with_premises.items()
            for claim in claims_in
        }

    def claim_route(
        self, p_cluster: dict[str, float], cluster_of_claim: dict[int, str],
        collection: str | None = None,
    ) -> Candidates | None:  # fmt: skip
        """The claim route's candidate edges: every premise of every claim of each retrieved
        claim cluster (from ``collection`` only, when given)."""
        edges = EdgeColumns.read(self, "query/premises_of_claims", claims=sorted(cluster_of_claim),
                                 collection=collection)  # fmt: skip
        if not len(edges):
            return None
        if self.settings.premise_clusters == "query":
            edges = self.cluster_candidates(edges)
        p_claim = self.share_claim_mass(p_cluster, cluster_of_claim, edges)
        candidates = self.edge_arrays(edges, p_claim, cluster_of_claim)
        return candidates if len(candidates.premise) else None  # all of unknown stance

    def edge_arrays(
        self, edges: EdgeColumns, p_claim: dict[int, float], cluster_of_claim: dict[int, str]
    ) -> Candidates:
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
            names.setdefault(edges.cluster[i] or own_cluster(edges.premise[i]), len(names))
            for i in kept
        ]
        gammas: dict[str, int] = {}
        claim_clusters = [
            gammas.setdefault(cluster_of_claim.get(c) or own_cluster(c), len(gammas))
            for c in claims
        ]

        def frequencies(values: list[float]) -> NDArray[np.float64]:
            out = np.asarray([values[i] for i in kept], dtype=np.float64).reshape(-1)
            out[out < 0] = np.nan
            return out

        out = Candidates(
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

    def cluster_candidates(self, edges: EdgeColumns) -> EdgeColumns:
        """The candidate edges with premise clusters made now, over this query's candidates.

        Complete linkage at ``premise_cut`` (the offline default) over the distinct candidate
        premises with a vector; one without (``argkb embed`` has not reached it) is left
        unclustered, a cluster of its own (:meth:`edge_arrays`). ``cf_pro`` / ``cf_con`` are left
        unknown, so they are counted over the candidates.
        """
        from dataclasses import replace

        from argkb.cluster.hierarchy import agglomerative

        key = dict(zip(edges.premise, edges.premise_key, strict=True))
        premises = sorted(set(edges.premise), key=key.__getitem__)
        vectors = self.vectors(premises)
        embedded = [i for i, row in enumerate(vectors) if row.any()]  # zeros: no vector
        labels = agglomerative(vectors[embedded], linkage="complete",
                               cut=self.settings.premise_cut)  # fmt: skip
        label = {premises[i]: f"q:{n}" for i, n in zip(embedded, labels.tolist(), strict=True)}
        unknown = [-1.0] * len(edges)
        return replace(edges, cluster=[label.get(p, "") for p in edges.premise],
                       cf_pro=unknown, cf_con=unknown)  # fmt: skip

    # -- stage 4: rankers ------------------------------------------------------------------------

    def alignment_inputs(
        self, ids: list[int], vector: NDArray[np.float32]
    ) -> dict[int, AlignmentInput]:
        """Each claim's text, embedding contrast and nearness to the query, from one read
        (``cypher/query/alignment_inputs.cypher``)."""
        inputs = cypher.read_columns(self.driver, "query/alignment_inputs",
                                     database=self.database, ids=ids,
                                     vector=[float(x) for x in vector])  # fmt: skip
        return {
            int(cid): AlignmentInput(claim, value if known else None, float(near))
            for cid, claim, value, known, near in zip(
                inputs["id"],
                inputs["text"],
                inputs["contrast"],
                inputs["known"],
                inputs["near"],
                strict=True,
            )
        }

    def alignment_ahead(
        self, text: str, vector: NDArray[np.float32], p_cluster: dict[str, float],
        cluster_of_claim: dict[int, str],
    ) -> dict[int, AlignmentInput]:  # fmt: skip
        """:meth:`alignment_inputs` of every claim of the retrieved clusters; and where the
        estimator keeps decisions (:class:`~argkb.query.alignment.CrossAlignment`), its
        decisions for the claims :meth:`aligned` will likely ask about, made now, while the
        caller reads the candidate edges. Their order is guessed before the edges are known:
        P(gamma|q) shared by every claim read of the cluster, then nearness to the query."""
        inputs = self.alignment_inputs(sorted(cluster_of_claim), vector)
        if isinstance(self.alignment, CrossAlignment):
            size = Counter(cluster_of_claim.values())
            guess = sorted(inputs, key=lambda c: (
                -p_cluster.get(cluster_of_claim[c], 0.0) / size[cluster_of_claim[c]],
                -inputs[c].near, c))  # fmt: skip
            self.alignment.warm(text, [inputs[c].text for c in guess[: self.alignment.limit]])
        return inputs

    def aligned(
        self,
        text: str,
        vector: NDArray[np.float32],
        candidates: Candidates,
        inputs: dict[int, AlignmentInput] | None = None,
    ) -> NDArray[np.float64]:
        """P(q aligned c) for the claim of every candidate edge, from ``self.alignment``.

        Only the claims the claim route credits (P(c|q) > 0) are asked about, the most credited
        first (and of equal credit, the claims of one cluster, the nearest the query first); the
        conclusions of premises found directly by BM25 or vector search count as aligned, so
        such a premise keeps the stance it has towards its own conclusion (and no estimator runs
        over dozens of unrelated conclusions per query). ``inputs``: :meth:`alignment_inputs`
        of a superset of those claims when the caller read them already (the hybrid reads them
        for every claim of the retrieved claim clusters while its edges are read); else read
        here.
        """
        import numpy as np

        out = np.ones(len(candidates.claim))
        if self.alignment is always_aligned:
            return out
        credited = candidates.p_claim > 0
        mass: dict[int, float] = {}
        claims, p_c = candidates.claim[credited].tolist(), candidates.p_claim[credited].tolist()
        for c, p in zip(claims, p_c, strict=True):
            mass[int(c)] = max(mass.get(int(c), 0.0), float(p))
        if not mass:
            return out
        if inputs is None:
            inputs = self.alignment_inputs(sorted(mass), vector)
        ids = sorted(mass, key=lambda c: (-mass[c], -inputs[c].near, c))
        asked = [inputs[c] for c in ids]
        p = self.alignment(text, [a.text for a in asked], [a.contrast for a in asked])
        values = dict(zip(ids, p, strict=True))
        out[credited] = [values[int(c)] for c in candidates.claim[credited]]
        return out

    def pfidf_terms(self, candidates: Candidates) -> EdgeTerms:
        """pf, icf and each edge's contribution to P(pi^s|q) (:mod:`argkb.retrieve.pfidf`)."""
        from argkb.retrieve.pfidf import edge_terms

        n_gamma = max(self.counts()["claim_clusters"], int(candidates.claim_cluster.max()) + 1)
        return edge_terms(
            candidates.premise_cluster, candidates.claim, candidates.claim_cluster,
            candidates.pro, candidates.cf_pro, candidates.cf_con, n_gamma, candidates.p_claim,
        )  # fmt: skip

    def vectors(self, ids: list[int]) -> NDArray[np.float32]:
        """The stored embeddings of units ``ids``, in order (zeros where a unit has none)."""
        import numpy as np

        rows = {r["id"]: r["embedding"] for r in self.read("query/units", ids=ids, vectors=True)}
        dims = self.embedder.dimensions
        return np.asarray(
            [rows[i] if rows.get(i) is not None else [0.0] * dims for i in ids], dtype=np.float32
        )
