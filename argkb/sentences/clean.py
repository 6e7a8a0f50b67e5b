"""Which sentences are sentences: the pipeline's preprocessing (Touché 2022, Sec. 3.2).

Wenzlitschke & Sülzle drop "non-proper language sentences" by part-of-speech heuristics before
indexing. No part-of-speech tagger installs here without a model download (NLTK's and spaCy's
taggers fetch their models), so :func:`proper_sentence` asks the same questions with word lists:

- **enough words**: at least :data:`MIN_WORDS` words of letters once URLs are taken out (drops
  ``Rules 1.``, ``Source:``, bare links, signatures);
- **mostly words**: at least :data:`MIN_WORD_SHARE` of the whitespace tokens are words (drops
  reference lines, tables, numbers);
- **not a reference**: does not start like one (``[3] ...``, ``Retrieved from``, ``ibid``);
- **a verb**: some word is an auxiliary, a modal or a common verb form of :data:`VERBS`, or ends
  in ``-ed``, ``-ing`` or ``n't`` (a fragment without a verb is a title or a list item).

The filter is applied at query time to the first stage's candidates and to the partner sentence
(:mod:`argkb.sentences.pipeline`); the graph keeps every sentence, so switching it off needs no
re-split. What it drops on real premises is measured in docs/sentences.md.
"""

from __future__ import annotations

import re

__all__ = ["MIN_WORDS", "MIN_WORD_SHARE", "VERBS", "proper_sentence"]

MIN_WORDS = 4
MIN_WORD_SHARE = 0.6

_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_APOSTROPHE = "\u2019"  # a typographic apostrophe, read as '
_WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019-]*")
_REFERENCE = re.compile(
    r"^\s*(?:\[\d+\]|\(\d+\)\s*[A-Z][a-z]+,|retrieved\b|ibid\b|sources?\s*:|references?\s*:)",
    re.IGNORECASE,
)

# auxiliaries, modals, and the most frequent English verbs in their common forms
VERBS = frozenset(
    """
    am is are was were be been being 's 're 'm isnt arent wasnt werent have has had having 've
    'd do does did doing done can could will would shall should may might must ought need needs
    cannot wont make makes made get gets got give gives gave given take takes took taken go
    goes went gone come comes came say says said see sees saw seen know knows knew known think
    thinks thought want wants let lets put puts keep keeps kept find finds found tell tells
    told become becomes became show shows shown mean means meant leave leaves left feel feels
    felt bring brings brought begin begins began seem seems help helps allow allows lead leads
    led cause causes kill kills pay pays paid lose loses lost believe believes agree agrees
    argue argues support supports prove proves provide provides protect protects reduce reduces
    increase increases create creates harm harms hurt hurts live lives die dies use uses work
    works
    """.split()  # noqa: SIM905
)


def proper_sentence(text: str) -> bool:
    """Whether ``text`` reads as a sentence (module docstring); pure, no model."""
    without_urls = _URL.sub(" ", text)
    words = _WORD.findall(without_urls)
    if len(words) < MIN_WORDS:
        return False
    tokens = without_urls.split()
    if len(words) < MIN_WORD_SHARE * len(tokens):
        return False
    if _REFERENCE.match(text):
        return False
    lowered = [w.lower().replace(_APOSTROPHE, "'") for w in words]
    return any(w in VERBS or w.endswith(("ed", "ing", "n't")) or _contracted_verb(w)
               for w in lowered)  # fmt: skip


def _contracted_verb(word: str) -> bool:
    """``it's``, ``they're``, ``we've``: the part from the apostrophe is a verb."""
    cut = word.find("'")
    return cut > 0 and word[cut:] in VERBS
