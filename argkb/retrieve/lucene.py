"""Query text for Lucene full-text indexes (``db.index.fulltext.queryNodes``).

Every full-text lookup of argkb (claims, premises, the BM25 baseline) passes the user's text
through :func:`lucene_query`, so that it is a bag of terms and never Lucene syntax.
"""

from __future__ import annotations

import re

__all__ = ["MAX_TERMS", "lucene_query", "token_count"]

MAX_TERMS = 512
"""Tokens kept of a long query: Lucene refuses a boolean query of more than 1,024 clauses."""

# Lucene classic query syntax: these characters must be escaped to be taken literally.
_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
_OPERATORS = re.compile(r"\b(AND|OR|NOT|TO)\b")
_RUN = re.compile(r"\w+")
# scripts the standard analyzer cuts into one token per character
_PER_CHARACTER = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_LONGEST_TOKEN = 255  # the standard tokenizer cuts longer runs into pieces
# anything else but ASCII punctuation may be a token of its own (emoji are)
_OTHER = re.compile(r"[^\w\s!-/:-@\[-`{-~]")


def token_count(word: str) -> int:
    """At least as many tokens as the standard analyzer makes of ``word`` (so a query of words
    whose counts add up to ``MAX_TERMS`` has at most that many clauses): each run of word
    characters (``a-b-c`` is three), one per ideograph, one per 255 characters, one per other
    character that is not ASCII punctuation (emoji)."""
    return len(_OTHER.findall(word)) + sum(
        max(1, len(_PER_CHARACTER.findall(run))) + len(run) // _LONGEST_TOKEN
        for run in _RUN.findall(word)
    )


def lucene_query(text: str, *, max_terms: int = MAX_TERMS) -> str:
    """``text`` as a Lucene query of plain terms: special characters escaped, operators lowered.

    ``AND``/``OR``/``NOT``/``TO`` are operators only in upper case; the analyzer lower-cases terms
    anyway, so lowering them keeps the words and drops the meaning. White space is folded and
    words are kept while their tokens add up to at most ``max_terms`` (a word the analyzer splits,
    like ``a-b-c`` or a run of ideographs, counts for each token). Returns ``""`` for a blank
    text.
    """
    words: list[str] = []
    budget = max_terms
    for word in text.split():
        budget -= token_count(word)
        if budget < 0:
            break
        words.append(word)
    escaped = _SPECIAL.sub(r"\\\1", " ".join(words))
    return _OPERATORS.sub(lambda match: match.group(1).lower(), escaped)
