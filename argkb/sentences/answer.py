"""Sentence-pair answers: what ``argkb query CLAIM --pairs`` and ``GET /api/v1/pairs`` return.

:func:`answer_pairs` runs the pipeline of :mod:`argkb.sentences.pipeline` (first stage,
preprocessing, re-ranking for the query, one pair per premise, pairing; each part switchable by
:class:`~argkb.sentences.pipeline.PairSettings`, :data:`~argkb.sentences.pipeline.BASELINE` is
BM25 top sentence + its next sentence) and adds what a reader needs to judge a pair: the
premise (unit) it comes from, the arguments that premise serves with its stance in each, and,
with ``explain``, what scored the pair. :class:`PairsResult` is the schema of
``--pairs --json`` and of the API's answer (:mod:`argkb.serve.models` mirrors it).
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from argkb.db import cypher
from argkb.errors import SentencesMissing
from argkb.sentences.pipeline import (
    DEFAULT,
    PairSettings,
    ScoredPair,
    embed_query,
    pipeline_pairs,
)
from argkb.sentences.store import pending_corpora

if TYPE_CHECKING:
    import neo4j


@dataclass(frozen=True)
class PairSentence:
    """One sentence of a pair: ``position`` is its 0-based order in the premise."""

    uid: str
    text: str
    position: int


@dataclass(frozen=True)
class PairArgument:
    """An argument the pair's premise serves: its id, the premise's stance there (``pro``,
    ``con`` or ``unknown``: towards that argument's conclusion, not towards the query) and the
    conclusion's text."""

    aid: str
    stance: str
    conclusion: str | None


@dataclass(frozen=True)
class PairExplain:
    """What scored a pair: the first-stage ``model``, the retrieved (top) sentence and its
    first-stage score, the pipeline's ``features`` of it (``first``: that score over the best
    candidate's; ``topic``, ``argument``, ``claim``: of its premise, where re-ranked) and their
    ``weights`` (the pair's score is their weighted sum), and how its partner was found:
    ``next`` or ``previous`` sentence, ``similar`` (cosine pairing), ``predicted`` (the
    next-sentence model) or ``single``."""

    model: str
    top_sentence: str
    top_position: int
    top_score: float
    features: dict[str, float]
    weights: dict[str, float]
    pairing: str


@dataclass
class PairAnswer:
    """One ranked pair: its sentences in text order (one where the premise has no other
    sentence left) and which of them was retrieved, the premise's unit key, its stance and
    arguments, and the score (the pipeline's: :class:`PairExplain`). Where pairs of other
    premises had the same text (:mod:`argkb.sentences.repeats`), ``arguments`` lists their
    arguments after the premise's own, and ``stance`` is over all of them."""

    rank: int
    score: float
    unit: str
    sentences: list[PairSentence]
    top: int  # which of ``sentences`` was retrieved (the other one is its neighbour)
    # pro or con where every argument listed with a known stance agrees; "mixed" where they
    # differ; None where no stance is known
    stance: str | None
    arguments: list[PairArgument] = field(default_factory=list)
    explain: PairExplain | None = None


@dataclass
class PairsResult:
    """The answer to ``--pairs``: ranked pairs best first, a message where there are none,
    notes on what the answer may lack; ``pipeline``: the parts used
    (:class:`~argkb.sentences.pipeline.PairSettings`)."""

    query: str
    model: str
    pairing: str
    pipeline: dict[str, object] = field(default_factory=dict)
    pairs: list[PairAnswer] = field(default_factory=list)
    message: str | None = None
    # what the answer may lack and what to run (corpora not split, premises without an embedding)
    notes: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)


def stance_of(arguments: list[PairArgument]) -> str | None:
    """The premise's stance over its arguments: the one known stance, ``mixed``, or None."""
    known = {a.stance for a in arguments if a.stance in ("pro", "con")}
    if not known:
        return None
    return known.pop() if len(known) == 1 else "mixed"


def answer_pairs(
    driver: neo4j.Driver,
    query: str,
    *,
    k: int = 10,
    settings: PairSettings = DEFAULT,
    embedder: object | None = None,
    explain: bool = False,
    database: str | None = None,
) -> PairsResult:
    """The best ``k`` sentence pairs for ``query`` with their sources.

    ``embedder`` (:class:`argkb.embed.model.Embedder`) embeds the query where ``settings``
    re-rank or pair by cosine. Raises :class:`~argkb.errors.SentencesMissing` when the graph has
    no sentences to search (``argkb sentences`` never ran): an empty answer would read as
    "nothing relevant".
    """
    from dataclasses import asdict

    pairing = {
        "next": "next sentence",
        "cosine": "most similar sentence",
        "nsp": "likeliest neighbour by the next-sentence model",
    }[settings.pairing]
    result = PairsResult(query=query, model=settings.model, pairing=pairing,
                         pipeline=asdict(settings))  # fmt: skip
    if not query.strip():
        result.message = "The query is empty: ask a claim, e.g. 'We should abandon fossil fuels'."
        return result
    vector = None
    if settings.needs_embedder and embedder is not None:
        started = time.perf_counter()  # the first query of a process also loads the model
        vector = embed_query(embedder, query)
        result.seconds["embed"] = time.perf_counter() - started
    started = time.perf_counter()
    try:
        found = pipeline_pairs(driver, query, settings, k=k, embedder=embedder, vector=vector,
                               database=database)  # fmt: skip
    except SentencesMissing:
        _require_sentences(driver, database)  # more precise: no premises, or none split yet
        raise
    result.seconds["retrieve"] = time.perf_counter() - started
    behind = len(pending_corpora(driver, database))
    if behind:
        corpora = "1 corpus" if behind == 1 else f"{behind:,} corpora"
        result.notes.append(
            f"{corpora} loaded since the last 'argkb sentences': premises not split yet are "
            "missing from these pairs; run 'argkb sentences'"
        )
    if not found:
        _require_sentences(driver, database)
        result.message = _nothing_found(driver, query, settings, database)
        return result
    started = time.perf_counter()
    premises = sorted({p.pair.top.premise for p in found})
    repeated = sorted({r.top.premise for p in found for r in p.repeats} - set(premises))
    arguments, unembedded = _arguments(driver, premises + repeated, database)
    unembedded &= set(premises)
    result.seconds["sources"] = time.perf_counter() - started
    if settings.reranks and unembedded:
        result.notes.append(
            f"{len(unembedded):,} of the {len(premises):,} premises shown have no embedding, so "
            "their topic and argumentativeness features count 0 and they rank lower than they "
            "should: run 'argkb embed' (or 'argkb update')"
        )
    if len(found) < k and _matches_beyond(driver, query, settings.depth, database):
        result.notes.append(
            f"{len(found):,} {'pair' if len(found) == 1 else 'pairs'}, not {k:,}: the pipeline "
            f"re-ranks the first stage's best {settings.depth:,} "
            f"{'sentence' if settings.depth == 1 else 'sentences'}, and more than that hold the "
            "query's words (a larger k does not widen it)"
        )
    result.notes.extend(_repeats_note(found))
    shown = settings if explain else None
    result.pairs = [
        _answer(rank, scored, _merged(scored, arguments), shown)
        for rank, scored in enumerate(found, start=1)
    ]
    return result


def _repeats_note(found: list[ScoredPair]) -> list[str]:
    """A note where pairs of other premises repeated the text of a pair shown (none else)."""
    n = sum(len(p.repeats) for p in found)
    if not n:
        return []
    return [
        f"{n:,} {'pair' if n == 1 else 'pairs'} of other premises repeated the text of a pair "
        f"shown (quoted or posted again) and {'is' if n == 1 else 'are'} left out; the pair "
        "shown lists their arguments with its own"
    ]


def _merged(scored: ScoredPair, arguments: dict[str, list[PairArgument]]) -> list[PairArgument]:
    """The arguments of the pair's premise, then those of the premises whose pairs repeat its
    text (:mod:`argkb.sentences.repeats`) that it does not list yet, by argument id."""
    merged = list(arguments.get(scored.pair.top.premise, []))
    seen = {a.aid for a in merged}
    for repeat in scored.repeats:
        for argument in arguments.get(repeat.top.premise, []):
            if argument.aid not in seen:
                seen.add(argument.aid)
                merged.append(argument)
    return merged


def _answer(
    rank: int, scored: ScoredPair, arguments: list[PairArgument], settings: PairSettings | None
) -> PairAnswer:
    pair = scored.pair
    sentences = [PairSentence(s.uid, s.text, s.position) for s in (pair.first, pair.second)
                 if s is not None]  # fmt: skip
    detail = None
    if settings is not None:
        how: str = pair.pairing
        if pair.second is not None and settings.pairing != "next":
            how = "similar" if settings.pairing == "cosine" else "predicted"
        weights = {n: w for n, w in settings.weights().items() if w}
        detail = PairExplain(settings.model, pair.top.uid, pair.top.position, pair.top.score,
                             {n: round(scored.features.get(n, 0.0), 6) for n in weights},
                             weights, how)  # fmt: skip
    top = 0 if pair.first.uid == pair.top.uid else 1
    return PairAnswer(rank, scored.score, pair.top.premise, sentences, top,
                      stance_of(arguments), arguments, detail)  # fmt: skip


def _arguments(
    driver: neo4j.Driver, premises: list[str], database: str | None
) -> tuple[dict[str, list[PairArgument]], set[str]]:
    """The arguments of each premise (one read for all), by argument id, and the premises
    without an embedding."""
    found: dict[str, list[PairArgument]] = defaultdict(list)
    unembedded: set[str] = set()
    for row in cypher.read(driver, "sentences/pair_sources", database=database, uids=premises):
        if not row["embedded"]:
            unembedded.add(row["uid"])
        if row["aid"] is not None:
            found[row["uid"]].append(PairArgument(row["aid"], row["stance"] or "unknown",
                                                  row["conclusion"]))  # fmt: skip
    return found, unembedded


def _matches_beyond(driver: neo4j.Driver, query: str, depth: int, database: str | None) -> bool:
    """Whether more than ``depth`` sentences hold a query term (the first stage's candidates
    come from the full-text index, whatever the model)."""
    from argkb.sentences.retrieve import rank_sentences

    return len(rank_sentences(driver, query, k=depth + 1, database=database)) > depth


def _nothing_found(
    driver: neo4j.Driver, query: str, settings: PairSettings, database: str | None
) -> str:
    """Why no pair came back: no sentence holds the query's words, or some do and the
    preprocessing dropped every one of them (it keeps sentences of English words with a verb,
    :mod:`argkb.sentences.clean`: a query in another language finds nothing through it)."""
    from argkb.sentences.clean import MIN_WORDS
    from argkb.sentences.retrieve import rank_sentences

    if settings.clean and rank_sentences(driver, query, k=1, database=database):
        return (
            "No proper sentence matches the query: the sentences that hold its words were all "
            f"dropped by the preprocessing, which keeps sentences of at least {MIN_WORDS} "
            "English words with a verb ('argkb query CLAIM --pairs --pairs-baseline' shows "
            "them unfiltered)."
        )
    return "No sentence matches the query."


def _require_sentences(driver: neo4j.Driver, database: str | None) -> None:
    """Raise :class:`SentencesMissing` where no premise was ever split into sentences (the
    index exists from ``argkb init`` on, so an empty hit list alone does not tell)."""
    (row,) = cypher.read(driver, "sentences/counts", database=database)
    if row["premises"] == 0:
        raise SentencesMissing(
            "the graph has no premises: load a corpus first (argkb load FORMAT PATH), then run "
            "'argkb update'"
        )
    if row["split_premises"] == 0:
        raise SentencesMissing(
            "the graph has no sentences to search: run 'argkb sentences' (or 'argkb update') first"
        )
