"""Query text for Lucene full-text indexes (``db.index.fulltext.queryNodes``).

Every full-text lookup of argkb (claims, premises, the BM25 baseline) passes the user's text
through :func:`lucene_query`, so that it is a bag of terms and never Lucene syntax.
"""

from __future__ import annotations

import re

__all__ = ["MAX_TERMS", "lucene_query"]

MAX_TERMS = 512
"""Terms kept of a long query: Lucene refuses a boolean query of more than 1,024 clauses."""

# Lucene classic query syntax: these characters must be escaped to be taken literally.
_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
_OPERATORS = re.compile(r"\b(AND|OR|NOT|TO)\b")


def lucene_query(text: str, *, max_terms: int = MAX_TERMS) -> str:
    """``text`` as a Lucene query of plain terms: special characters escaped, operators lowered.

    ``AND``/``OR``/``NOT``/``TO`` are operators only in upper case; the analyzer lower-cases terms
    anyway, so lowering them keeps the words and drops the meaning. White space is folded and only
    the first ``max_terms`` words are kept. Returns ``""`` for a blank text.
    """
    words = text.split()[:max_terms]
    escaped = _SPECIAL.sub(r"\\\1", " ".join(words))
    return _OPERATORS.sub(lambda match: match.group(1).lower(), escaped)
