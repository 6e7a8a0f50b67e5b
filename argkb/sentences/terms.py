"""Terms of sentences, and the collection statistics DirichletLM needs (``SentenceTerm`` nodes).

Lucene's full-text index does not expose its term statistics to Cypher, so ``argkb sentences``
keeps its own: ``(:SentenceTerm {term, cf, df})`` per term (collection and document frequency
over all sentences) and one ``(:SentenceStats {key: 'all', tokens, sentences})``. They are
updated by deltas in the same transaction that replaces a premise's sentences
(:func:`term_deltas`), so they always describe the stored sentences.

Terms are :func:`tokenize`'s: lower-cased runs of word characters, a run longer than
:data:`MAX_TERM` characters cut into pieces of that length (as the standard analyzer cuts its
tokens; a longer term, a pasted blob, would not fit the ``sentence_term`` range index and would
fail the whole run). This is close to, not the same as, the standard analyzer of the full-text
index (which keeps ``don't`` and ``3.5`` whole); the index only proposes candidates, and every
DirichletLM number is computed from these terms.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

MAX_TERM = 255
"""Characters of a term at most: Lucene's standard analyzer's maximum token length (the longest
word run in the benchmarks here has 160); 255 characters of UTF-8 fit a range index entry."""
_WORD = re.compile(rf"\w{{1,{MAX_TERM}}}")


def tokenize(text: str | None) -> list[str]:
    """Lower-cased runs of word characters, in order (``"Don't ban 3.5"`` -> don, t, ban, 3, 5);
    a run longer than :data:`MAX_TERM` characters is cut into pieces of at most that length."""
    return _WORD.findall((text or "").lower())


def term_deltas(
    removed: Iterable[str], added: Iterable[str]
) -> tuple[list[dict[str, object]], int, int]:
    """What replacing the sentences ``removed`` by ``added`` changes in the statistics:
    ``([{term, cf, df}], tokens, sentences)``, each a difference (negative where a term lost
    occurrences); terms whose counts do not change are left out."""
    cf: Counter[str] = Counter()
    df: Counter[str] = Counter()
    tokens = sentences = 0
    for sign, texts in ((-1, removed), (1, added)):
        for text in texts:
            terms = tokenize(text)
            sentences += sign
            tokens += sign * len(terms)
            for term, n in Counter(terms).items():
                cf[term] += sign * n
                df[term] += sign
    rows = [
        {"term": term, "cf": cf[term], "df": df[term]}
        for term in sorted(cf.keys() | df.keys())
        if cf[term] or df[term]
    ]
    return rows, tokens, sentences
