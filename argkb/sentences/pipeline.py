"""The sentence-pair pipeline (Touché 2022, Wenzlitschke & Sülzle): every part switchable.

:class:`PairSettings` names the parts; :func:`pipeline_pairs` runs them in order:

1. **first stage**: the best ``depth`` sentences by BM25 or DirichletLM
   (:func:`argkb.sentences.retrieve.rank_sentences`);
2. **preprocessing** (``clean``): drop what is not a sentence (:mod:`argkb.sentences.clean`), as
   candidates and as partners;
3. **re-ranking** for the query: each sentence scores ``first + topic * t + argument * a +
   claim * c``, where ``first`` is its first-stage score over the best candidate's (min-max for
   DirichletLM's log-likelihoods), ``t`` the cosine of its premise with the query, ``a`` the
   premise's argumentativeness probability (:mod:`argkb.retrieve.argument_prior`, trained on
   "Is Argument?") and ``c`` the best cosine of the query with a conclusion the premise serves
   (the paper's Boolean query over the sentence *and* its conclusion). The paper re-ranked with
   a BERT classifier of argumentativeness for the query; here the topic and the argumentativeness
   are two features of the premise's stored embedding, so a query embeds one text and reads the
   rest from Neo4j (``cypher/sentences/premise_features.cypher``);
4. **diversity** (``distinct``): at most one pair per premise;
5. **pairing**: ``next`` (the top sentence with its next sentence, the previous one when it is
   the last), ``cosine`` (the sentence of the same premise most similar to it, the paper's
   SBERT pairing, kept within the premise so that a pair is one argument) or ``nsp`` (the
   sentence of the same premise that a next-sentence model, :mod:`argkb.sentences.next_sentence`,
   finds likeliest to follow it or to precede it: the paper's BERT NSP pairing, substituted).
6. **repeats** (``distinct_text``): a pair whose text (normalised, :mod:`argkb.sentences.repeats`)
   a better pair already has is not shown again; the better one lists it in ``repeats`` (args.me
   posts quote each other, so one text is in several premises); with ``distinct_top`` (on in
   :data:`BASELINE` only) also a pair whose top sentence is a sentence of a better pair.

:data:`BASELINE` switches every part off: BM25 top sentence + its next sentence, the issue's
baseline. :data:`DEFAULT` is what ``argkb query --pairs`` uses; its weights and the measured
effect of each part are in docs/results/sentence-pairs.md (``python -m bench pairs_study``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from argkb.db import cypher
from argkb.retrieve import argument_prior
from argkb.sentences.clean import proper_sentence
from argkb.sentences.repeats import merge_repeats
from argkb.sentences.retrieve import (
    Model,
    Neighbour,
    RankedSentence,
    SentencePair,
    pair_greedily,
    pair_with_next,
    rank_sentences,
    read_neighbours,
)

if TYPE_CHECKING:
    import neo4j

    from argkb.retrieve.argument_prior import ArgumentPrior

PairingMethod = Literal["next", "cosine", "nsp"]
# what a sentence scores by: ``first`` (weight 1) and the re-ranking features, whose weights are
# the PairSettings fields of the same names
FEATURES = ("first", "topic", "argument", "claim", "sentence_topic", "sentence_argument")


@dataclass(frozen=True)
class PairSettings:
    """The pipeline's parts (module docstring); weights 0 switch a re-ranking feature off."""

    model: Model = "bm25"
    depth: int = 100  # first-stage sentences re-ranked
    clean: bool = True
    topic: float = 0.5
    argument: float = 1.0
    claim: float = 1.0
    # of the sentence itself: need `argkb sentences --embed` (0 where a sentence has no vector)
    sentence_topic: float = 0.0
    sentence_argument: float = 0.0
    distinct: bool = True
    pairing: PairingMethod = "next"
    # a pair repeating a better pair's text is left out (on in the baseline too: a reader sees
    # the same text twice whatever ranked it)
    distinct_text: bool = True
    # with distinct_text: a pair whose top sentence is a sentence of a better pair (a quotation
    # with another partner) is left out too. On in BASELINE, whose pairing uses a sentence once
    # (6 of its 400 ArgQuality pairs did); off in DEFAULT, to keep its measured answers (on, it
    # changes 1 of 20 SIGIR-19 dev answers: docs/results/sentence-pairs.md)
    distinct_top: bool = False

    def __post_init__(self) -> None:
        if self.model not in ("bm25", "dirichlet"):
            raise ValueError(f"unknown sentence model {self.model!r}: use bm25 or dirichlet")
        if self.pairing not in ("next", "cosine", "nsp"):
            raise ValueError(f"unknown pairing {self.pairing!r}: use next, cosine or nsp")
        if self.depth < 1:
            raise ValueError(f"depth must be at least 1, got {self.depth}")

    @property
    def reranks(self) -> bool:
        return any(w != 0.0 for n, w in self.weights().items() if n != "first")

    @property
    def reads_sentences(self) -> bool:
        return self.sentence_topic != 0.0 or self.sentence_argument != 0.0

    @property
    def needs_embedder(self) -> bool:
        return self.reranks or self.pairing != "next"

    def weights(self) -> dict[str, float]:
        return {"first": 1.0} | {name: float(getattr(self, name)) for name in FEATURES[1:]}


BASELINE = PairSettings(
    clean=False, topic=0.0, argument=0.0, claim=0.0, distinct=False, distinct_top=True
)
DEFAULT = PairSettings()


@dataclass(frozen=True)
class ScoredPair:
    """A pair with its score and the features behind it (``first`` .. ``claim``, unweighted);
    ``repeats``: lower-ranked pairs of other premises with the same text, left out for it."""

    pair: SentencePair
    score: float
    features: Mapping[str, float] = field(default_factory=dict)
    repeats: tuple[SentencePair, ...] = ()


def pipeline_pairs(
    driver: neo4j.Driver,
    query: str,
    settings: PairSettings = DEFAULT,
    *,
    k: int = 10,
    embedder: object | None = None,
    vector: Sequence[float] | None = None,
    prior: ArgumentPrior | None = None,
    database: str | None = None,
) -> list[ScoredPair]:
    """The best ``k`` pairs for ``query`` by ``settings``.

    A pipeline that re-ranks or pairs by a model (cosine, nsp) needs the query's ``vector`` or
    an ``embedder`` to make it (``embed(texts, use_cache=...)``, as
    :class:`argkb.embed.model.Embedder`);
    ``prior`` defaults to the shipped argumentativeness prior.
    """
    ranked = rank_sentences(driver, query, model=settings.model, k=settings.depth,
                            depth=max(settings.depth, 1000), database=database)  # fmt: skip
    if settings.clean:
        ranked = [s for s in ranked if proper_sentence(s.text)]
    if not ranked:
        return []
    features = {s.uid: {"first": f} for s, f in zip(ranked, _first_stage(ranked), strict=True)}
    if settings.needs_embedder and vector is None:
        vector = embed_query(embedder, query)
    model = prior if prior is not None else argument_prior.load()
    if settings.reranks:
        assert vector is not None
        by_premise = _premise_features(driver, ranked, vector, model, database)
        for s in ranked:
            features[s.uid].update(by_premise.get(s.premise, _MISSING))
    if settings.reads_sentences:
        assert vector is not None
        for uid, found in _sentence_features(driver, ranked, vector, model, database).items():
            features[uid].update(found)
    weights = settings.weights()
    scores = {uid: math.fsum(weights[n] * f.get(n, 0.0) for n in weights if weights[n])
              for uid, f in features.items()}  # fmt: skip
    ranked.sort(key=lambda s: (-scores[s.uid], s.uid))
    if settings.distinct:
        ranked = _one_per_premise(ranked)
    # without `distinct` a sentence in a better pair is skipped: 3 k leave k pairs; with
    # `distinct_text` every one of them is paired, so that k remain once repeats are left out
    ranked = ranked[: 3 * k]
    wanted = len(ranked) if settings.distinct_text else k
    if settings.pairing in ("cosine", "nsp"):
        pairs = _pair_by_model(driver, ranked, embedder, settings, wanted, database)
    else:
        neighbours = read_neighbours(driver, [s.uid for s in ranked], database)
        if settings.clean:
            neighbours = {uid: (_proper(p), _proper(n)) for uid, (p, n) in neighbours.items()}
        pairs = pair_with_next(ranked, neighbours, wanted)
    answer = [ScoredPair(p, scores[p.top.uid], features[p.top.uid]) for p in pairs]
    if not settings.distinct_text:
        return answer
    return merge_repeats(answer, k, top_once=settings.distinct_top)


_MISSING = {"topic": 0.0, "argument": 0.0, "claim": 0.0}


def _first_stage(ranked: Sequence[RankedSentence]) -> list[float]:
    """Each score over the best (BM25's are positive); min-max where some are not
    (DirichletLM's log-likelihoods), 1 for all where they are equal."""
    scores = [s.score for s in ranked]
    top, low = max(scores), min(scores)
    if low > 0:
        return [x / top for x in scores]
    if top == low:
        return [1.0] * len(scores)
    return [(x - low) / (top - low) for x in scores]


def embed_query(embedder: object | None, query: str) -> list[float]:
    """The query's vector from ``embedder`` (its ``embed(texts, use_cache=False)``)."""
    if embedder is None:
        raise ValueError("this pipeline needs the query's vector or an embedding model")
    vector = embedder.embed([query], use_cache=False)[0]  # type: ignore[attr-defined]
    return [float(x) for x in vector]


def _premise_features(
    driver: neo4j.Driver,
    ranked: Sequence[RankedSentence],
    vector: Sequence[float],
    prior: ArgumentPrior,
    database: str | None,
) -> dict[str, dict[str, float]]:
    """Per premise uid: topic and claim cosines (0 where an embedding is missing) and the
    argumentativeness probability."""
    premises = sorted({s.premise for s in ranked})
    scored = _read_with_prior(driver, "sentences/premise_features", premises, vector, prior,
                              database)  # fmt: skip
    # a premise without an embedding has no argumentativeness either (its prior row is -2)
    return {r["uid"]: {"topic": _cosine(r["topic"]), "argument": p if r["prior"] >= 0 else 0.0,
                       "claim": _cosine(r["claim"])}
            for r, p in scored}  # fmt: skip


def _sentence_features(
    driver: neo4j.Driver,
    ranked: Sequence[RankedSentence],
    vector: Sequence[float],
    prior: ArgumentPrior,
    database: str | None,
) -> dict[str, dict[str, float]]:
    """Per sentence uid: its cosine with the query and the argumentativeness probability of its
    own embedding (the premise prior applied to the sentence); 0 for both without a vector."""
    scored = _read_with_prior(driver, "sentences/sentence_features",
                              [s.uid for s in ranked], vector, prior, database)  # fmt: skip
    return {r["uid"]: {"sentence_topic": _cosine(r["topic"]),
                       "sentence_argument": p if r["prior"] >= 0 else 0.0}
            for r, p in scored}  # fmt: skip


def _read_with_prior(
    driver: neo4j.Driver,
    query: str,
    uids: list[str],
    vector: Sequence[float],
    prior: ArgumentPrior,
    database: str | None,
) -> list[tuple[Mapping[str, Any], float]]:
    """The rows of the named feature ``query`` for ``uids`` (its similarities to the query's
    ``vector`` and to the prior's direction, and ``words``), each with the argumentativeness
    probability the prior gives it."""
    import numpy as np

    rows = cypher.read(driver, query, database=database, uids=uids,
                       vector=[float(x) for x in vector],
                       argument=list(prior.direction))  # fmt: skip
    if not rows:
        return []
    logits = prior.logits([r["prior"] for r in rows], [r["words"] or 0 for r in rows])
    return [(r, float(p)) for r, p in zip(rows, 1.0 / (1.0 + np.exp(-logits)), strict=True)]


def _cosine(similarity: float) -> float:
    """Neo4j's ``(1 + cos) / 2`` back to the cosine; 0 for a missing embedding (-2)."""
    return cypher.cosine(float(similarity)) if similarity >= 0 else 0.0


def _one_per_premise(ranked: Sequence[RankedSentence]) -> list[RankedSentence]:
    seen: set[str] = set()
    kept = []
    for s in ranked:
        if s.premise not in seen:
            seen.add(s.premise)
            kept.append(s)
    return kept


def _proper(neighbour: Neighbour | None) -> Neighbour | None:
    return neighbour if neighbour is not None and proper_sentence(neighbour.text) else None


def _pair_by_model(
    driver: neo4j.Driver,
    ranked: Sequence[RankedSentence],
    embedder: object | None,
    settings: PairSettings,
    k: int,
    database: str | None,
) -> list[SentencePair]:
    """Each top sentence, best first, with the unused sentence of its premise that the pairing
    prefers, in text order; alone where none is left. ``cosine``: the most similar by
    all-MiniLM-L6-v2; ``nsp``: the likeliest by the next-sentence model
    (:mod:`argkb.sentences.next_sentence`), as its successor when it comes later in the text
    and as its predecessor when earlier. Stored sentence vectors (``argkb sentences --embed``)
    are used where present; the others are embedded now."""
    rows = cypher.read(driver, "sentences/premise_sentences", database=database,
                       uids=sorted({s.premise for s in ranked}))  # fmt: skip
    candidates: dict[str, list[Neighbour]] = {}
    for r in rows:
        if not settings.clean or proper_sentence(r["text"]):
            candidates.setdefault(r["premise"], []).append(
                Neighbour(r["uid"], r["text"], int(r["position"])))  # fmt: skip
    vectors = _sentence_vectors(rows, [n for ns in candidates.values() for n in ns], ranked,
                                embedder)  # fmt: skip

    def partner(top: RankedSentence, used: set[str]) -> Neighbour | None:
        others = [n for n in candidates.get(top.premise, ())
                  if n.uid != top.uid and n.uid not in used]  # fmt: skip
        return _preferred(top, others, vectors, settings.pairing)

    return pair_greedily(ranked, partner, k)


def _sentence_vectors(
    rows: Sequence[Mapping[str, Any]],
    candidates: Sequence[Neighbour],
    ranked: Sequence[RankedSentence],
    embedder: object | None,
) -> dict[str, Any]:
    """Sentence uid -> unit-length vector for the partner ``candidates`` and the top sentences:
    stored where the row has one, embedded otherwise (only these: a sentence the preprocessing
    dropped is never a partner)."""
    import numpy as np

    vectors = {r["uid"]: np.asarray(r["embedding"], np.float64) for r in rows
               if r["embedding"] is not None}  # fmt: skip
    texts = {n.uid: n.text for n in candidates} | {s.uid: s.text for s in ranked}
    missing = [uid for uid in texts if uid not in vectors]
    if missing:
        if embedder is None:
            raise ValueError("pairing by cosine or nsp needs an embedding model")
        embedded = embedder.embed([texts[u] for u in missing], use_cache=False)  # type: ignore[attr-defined]
        vectors.update(zip(missing, np.asarray(embedded, np.float64), strict=True))
    return vectors


def _preferred(
    top: RankedSentence, others: Sequence[Neighbour], vectors: Mapping[str, Any], pairing: str
) -> Neighbour | None:
    if not others:
        return None
    import numpy as np

    mine = vectors[top.uid]
    matrix = np.stack([vectors[n.uid] for n in others])
    if pairing == "cosine":
        scores = matrix @ mine
    else:
        from argkb.sentences import next_sentence

        model = next_sentence.load()
        after = np.asarray([n.position > top.position for n in others])
        repeated = np.repeat(mine[None, :], len(others), 0)
        scores = np.where(after, model.probabilities(repeated, matrix),
                          model.probabilities(matrix, repeated))  # fmt: skip
    best = max(range(len(others)), key=lambda i: (float(scores[i]), -others[i].position))
    return others[best]
