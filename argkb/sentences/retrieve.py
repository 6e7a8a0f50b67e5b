"""First stage of sentence-pair retrieval (Touché 2022, Wenzlitschke & Sülzle, Sec. 3.3-3.5):
rank sentences by BM25 or DirichletLM, and pair each top sentence with the one after it.

- **BM25**: Lucene's, from the ``sentence_text`` full-text index (k1 = 1.2, b = 0.75; the
  standard analyzer without stop words).
- **DirichletLM**: query likelihood with Dirichlet smoothing (Zhai & Lafferty, SIGIR 2001),
  :func:`dirichlet_lm`, over the index's candidates (the sentences holding some query term,
  the best ``depth`` by BM25), with the collection statistics of :mod:`argkb.sentences.terms`.
  mu is the mean sentence length in terms, as the paper set it (116 there, after its filters).
- **Pairing** (:func:`pair_with_next`): the baseline of the issue's evaluation, a top sentence
  with the next sentence of its premise (the previous one when it is the last); a sentence is
  used in one pair at most, as in the paper's pairing.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from argkb.db import cypher
from argkb.errors import SentencesMissing
from argkb.sentences.terms import tokenize

if TYPE_CHECKING:
    import neo4j

Model = Literal["bm25", "dirichlet"]
Pairing = Literal["next", "previous", "single"]


@dataclass(frozen=True)
class RankedSentence:
    uid: str
    text: str
    premise: str  # the uid of its premise
    position: int
    score: float


@dataclass(frozen=True)
class Neighbour:
    uid: str
    text: str
    position: int


@dataclass(frozen=True)
class SentencePair:
    """Two sentences of one premise in text order; ``top`` is the retrieved one."""

    first: Neighbour
    second: Neighbour | None  # None: a premise of one sentence
    top: RankedSentence

    @property
    def score(self) -> float:
        return self.top.score

    @property
    def pairing(self) -> Pairing:
        """How the second sentence was found: the top sentence's ``next`` one, its
        ``previous`` one (the top sentence is its premise's last, or its next one was used in
        a better pair), or ``single`` (no neighbour left)."""
        if self.second is None:
            return "single"
        return "next" if self.first.uid == self.top.uid else "previous"


@dataclass(frozen=True)
class TermStats:
    cf: Mapping[str, int]  # collection frequency of each query term that occurs
    tokens: int  # terms in all sentences
    sentences: int

    @property
    def mean_length(self) -> float:
        return self.tokens / self.sentences if self.sentences else 0.0


def dirichlet_lm(
    query: Sequence[str],
    documents: Sequence[Sequence[str]],
    stats: TermStats,
    *,
    mu: float | None = None,
) -> list[float]:
    """Query log-likelihood of each document under its Dirichlet-smoothed language model.

    ``score(q, d) = sum over query terms t (with repeats) of
    log((tf(t, d) + mu * cf(t) / |C|) / (|d| + mu))``, Eq. 6 of Zhai & Lafferty (SIGIR 2001)
    with p(t|C) = cf(t) / |C|. Query terms that occur nowhere in the collection are left out
    (their p(t|C) is 0, the same for every document). ``mu`` defaults to the mean document
    length, ``stats.tokens / stats.sentences`` (Wenzlitschke & Sülzle, Sec. 3.3).

    Parameters
    ----------
    query, documents
        Terms, as :func:`argkb.sentences.terms.tokenize` makes them.
    stats
        Collection statistics over all documents (not only these).
    """
    if mu is None:
        mu = stats.mean_length
    if mu <= 0 or stats.tokens <= 0:
        raise ValueError("DirichletLM needs mu > 0 and a non-empty collection")
    known = Counter(t for t in query if stats.cf.get(t, 0) > 0)
    prior = {t: mu * stats.cf[t] / stats.tokens for t in known}
    scores = []
    for doc in documents:
        tf = Counter(doc)
        norm = math.log(len(doc) + mu)
        scores.append(sum(n * (math.log(tf[t] + prior[t]) - norm) for t, n in known.items()))
    return scores


def pair_with_next(
    ranked: Sequence[RankedSentence],
    neighbours: Mapping[str, tuple[Neighbour | None, Neighbour | None]],
    k: int,
) -> list[SentencePair]:
    """The first ``k`` pairs: each ranked sentence, best first, with its next sentence
    (``neighbours[uid] = (previous, next)``), or its previous one when it has no next; a
    sentence already in a better pair is not used again, as first or second."""

    def partner(top: RankedSentence, used: set[str]) -> Neighbour | None:
        previous, following = neighbours.get(top.uid, (None, None))
        if following is not None and following.uid not in used:
            return following
        return previous if previous is not None and previous.uid not in used else None

    return pair_greedily(ranked, partner, k)


def pair_greedily(
    ranked: Sequence[RankedSentence],
    partner: Callable[[RankedSentence, set[str]], Neighbour | None],
    k: int,
) -> list[SentencePair]:
    """The first ``k`` pairs: each ranked sentence, best first, with ``partner(top, used)`` (a
    sentence of its premise not in ``used``, or None), in text order; a sentence already in a
    better pair is not used again, as first or second."""
    used: set[str] = set()
    pairs: list[SentencePair] = []
    for top in ranked:
        if len(pairs) >= k:
            break
        if top.uid in used:
            continue
        me = Neighbour(top.uid, top.text, top.position)
        other = partner(top, used)
        used.add(top.uid)
        if other is None:
            pairs.append(SentencePair(me, None, top))
            continue
        used.add(other.uid)
        first, second = (me, other) if other.position > top.position else (other, me)
        pairs.append(SentencePair(first, second, top))
    return pairs


def read_term_stats(
    driver: neo4j.Driver, terms: Sequence[str], database: str | None = None
) -> TermStats:
    """cf of ``terms`` and the totals, from ``SentenceTerm``/``SentenceStats``."""
    row = cypher.read(driver, "sentences/term_stats", database=database, terms=sorted(set(terms)))
    found = row[0]
    cf = {t: int(c) for t, c in zip(found["term"], found["cf"], strict=True) if c > 0}
    return TermStats(cf, int(found["tokens"]), int(found["sentences"]))


def rank_sentences(
    driver: neo4j.Driver,
    query: str,
    *,
    model: Model = "bm25",
    k: int = 10,
    depth: int = 1000,
    database: str | None = None,
) -> list[RankedSentence]:
    """The best ``k`` sentences for ``query`` by ``model``; DirichletLM re-scores the best
    ``depth`` BM25 candidates (every sentence holding a query term when there are fewer)."""
    from argkb.retrieve.lucene import lucene_query

    if model not in ("bm25", "dirichlet"):
        raise ValueError(f"unknown sentence model {model!r}: use bm25 or dirichlet")
    lucene = lucene_query(query)
    if not lucene.strip():
        return []
    from argkb.retrieve.routes import read_if_available

    hits = read_if_available(
        lambda: cypher.read(driver, "sentences/fulltext", database=database, query=lucene,
                            limit=k if model == "bm25" else max(k, depth)),
        driver, ["sentence_text"], database,
    )  # fmt: skip
    if hits is None:
        raise SentencesMissing(
            "the graph has no sentence index (sentence_text) online: run 'argkb sentences' "
            "(or 'argkb update') first, or wait until a load has rebuilt it"
        )
    found = [RankedSentence(h["uid"], h["text"], h["premise"], int(h["position"]),
                            float(h["score"])) for h in hits]  # fmt: skip
    if model == "bm25" or not found:
        return found[:k]
    terms = tokenize(query)
    stats = read_term_stats(driver, terms, database)
    scores = dirichlet_lm(terms, [tokenize(s.text) for s in found], stats)
    rescored = [
        RankedSentence(s.uid, s.text, s.premise, s.position, score)
        for s, score in zip(found, scores, strict=True)
    ]
    rescored.sort(key=lambda s: (-s.score, s.uid))
    return rescored[:k]


def retrieve_pairs(
    driver: neo4j.Driver,
    query: str,
    *,
    model: Model = "bm25",
    k: int = 10,
    depth: int = 1000,
    database: str | None = None,
) -> list[SentencePair]:
    """The baseline sentence pairs for ``query``: the top sentences by ``model``, each with the
    next sentence of its premise (:func:`pair_with_next`). Ranks ``2 * k`` sentences, so that
    ``k`` pairs remain after sentences already used are skipped."""
    ranked = rank_sentences(driver, query, model=model, k=2 * k, depth=depth, database=database)
    if not ranked:
        return []
    return pair_with_next(ranked, read_neighbours(driver, [s.uid for s in ranked], database), k)


def read_neighbours(
    driver: neo4j.Driver, uids: Sequence[str], database: str | None = None
) -> dict[str, tuple[Neighbour | None, Neighbour | None]]:
    """The previous and next sentence of each sentence in ``uids`` (None at either end)."""
    rows = cypher.read(driver, "sentences/neighbours", database=database, uids=list(uids))
    return {
        r["uid"]: (
            Neighbour(r["prev_uid"], r["prev_text"], int(r["prev_position"]))
            if r["prev_uid"] is not None else None,
            Neighbour(r["next_uid"], r["next_text"], int(r["next_position"]))
            if r["next_uid"] is not None else None,
        )
        for r in rows
    }  # fmt: skip
