"""Snippets: the best two sentences of a long premise for the query (issue #30, item 3).

A premise of more than two sentences is shown by its best pair: the sentence with the highest
DirichletLM score for the query (:func:`argkb.sentences.retrieve.dirichlet_lm`, mu = the mean
sentence length, the first stage's model) with its next sentence, or with its previous one
when it is the last. Where no sentence of the premise holds a query term, every score is only
a length penalty, so the snippet is the premise's first two sentences instead. Premises of one
or two sentences, and premises that were never split, get no snippet: their text is short
enough, or there is nothing to choose from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from argkb.sentences.retrieve import TermStats, dirichlet_lm
from argkb.sentences.terms import tokenize


def best_pair(terms: Sequence[str], sentences: Sequence[str], stats: TermStats) -> list[str] | None:
    """The snippet of a premise whose sentences, in text order, are ``sentences``: two of them,
    adjacent and in text order; None for a premise of two sentences or fewer."""
    if len(sentences) <= 2:
        return None
    tokens = [tokenize(text) for text in sentences]
    known = {t for t in terms if stats.cf.get(t, 0) > 0}
    if stats.tokens <= 0 or not any(known & set(doc) for doc in tokens):
        return list(sentences[:2])
    scores = dirichlet_lm(terms, tokens, stats)
    top = max(range(len(sentences)), key=lambda i: (scores[i], -i))  # ties: the earlier one
    first = top if top + 1 < len(sentences) else top - 1
    return [sentences[first], sentences[first + 1]]


def snippets_from(query: str, row: Mapping[str, Any]) -> dict[str, list[str]]:
    """The snippets of the premises in ``row`` (the one row of ``cypher/sentences/snippets``),
    by unit key; premises without one are left out."""
    stats = TermStats(
        {t: int(c) for t, c in zip(row["term"], row["cf"], strict=True) if c > 0},
        int(row["tokens"]),
        int(row["sentences"]),
    )
    terms = tokenize(query)
    found = {}
    for key, texts in zip(row["key"], row["texts"], strict=True):
        pair = best_pair(terms, texts, stats)
        if pair is not None:
            found[key] = pair
    return found
