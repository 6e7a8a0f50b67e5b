"""Split a premise into sentences with syntok (pure Python, rules only, no model to download).

Why syntok and not pysbd (measured on 500 Webis-ArgQuality-20 premises, docs/sentences.md):
syntok is about 5x faster (2 ms against 10 ms a premise), keeps URLs whole where pysbd cuts at
``?``, splits the run-on ``people.According`` of forum text, and reports character offsets, so a
sentence is an exact slice of its premise (the graph step uses that to notice a changed text).

syntok leaves some boundaries that a reader sees (the audit in docs/sentences.md), so each of its
sentences is cut again where :data:`_CUT` finds one of these (:func:`_cuts`):

- **a lowercase start**: ``it exists now. the stock market is fine`` (forum posts often skip
  capitals; syntok never splits before a lowercase word), unless the word before the stop is an
  abbreviation (:data:`ABBREVIATIONS`, a word with a dot inside like ``e.g``/``U.S``, a single
  letter, a one- or two-digit list number) or the stop is an ellipsis;
- **a stop inside brackets**: ``(they are high in cholesterol.) The risk ...`` (syntok skips a
  short bracket whole), with the same exceptions;
- **an emoji**: ``a good idea 😀. Next ...`` (the tokenizer glues the stop to the emoji) and
  ``a good idea 😀 Next ...`` (an emoji ends the sentence), before a capital letter;
- **a dotted initialism before a clear sentence starter**: ``in the U.S. He said ...``;
- **a list item on its own line**: a line break before ``- ``, ``* ``, ``• ``, ``1. ``,
  ``2) `` or ``a) `` (posts with one item a line and no full stops).

A change here that moves sentence boundaries raises :data:`argkb.db.staleness.SPLITTER`, the
version stored on every premise split, so that graphs split before it are split again.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from argkb.embed.store import word_count

# abbreviations a full stop follows inside a sentence (compared in lower case; words with a dot
# inside, single letters and short numbers are treated alike without being listed)
ABBREVIATIONS = frozenset(
    """
    al approx apr assn aug ave avg bd blvd ca cf ch co col cont corp dec dept dist dr ed eds eg
    esp est etc ex excl
    feb fig figs ft gen gov govt hr hrs ie inc incl jan jr jul jun lb lbs lt ltd mar max min
    mins misc mr mrs ms mt no nos nov oct op oz pg pp prof pt ref rep resp rev sen sep sept sgt
    sq sr st sun vol vols vs yr yrs
    """.split()  # noqa: SIM905
)
_EMOJI = "\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff\ufe0f\u200d"
_STARTERS = (
    "I|He|She|It|We|They|You|This|That|These|Those|There|But|However|So|The|In|If|What|Why|"
    "How|My|Our|Their|His|Her"
)
# each alternative ends where the next sentence starts; ``stop`` marks a cut that the word
# before the full stop (``_abbreviation``) can veto
_CUT = re.compile(
    rf"""
    (?P<stop>(?<![.!?\u20ac\ufffd])[.!?]+)\s+(?=[a-z])           # a stop, then a lowercase word
    | (?P<bracket>[.!?])[)\]]+\s+(?=[\"\u201c(\[]?[A-Z])  # a stop inside brackets, a capital
    | [{_EMOJI}]+(?:\s*[.!?]+)?\s+(?=[\"\u201c(\[]?[A-Z])  # an emoji (and a stop), a capital
    | (?<![\w.])(?:[A-Z]\.){{2,}}\s+(?=(?:{_STARTERS})\b)   # U.S. He
    | \n(?=[ \t]*(?:[-*\u2022\u2013]|\d{{1,2}}[.)]|[a-z]\))[ \t])  # a list item's line
    """,
    re.VERBOSE,
)
_WORD_BEFORE = re.compile(r"[\w.'\u2019-]*$")


class Span(NamedTuple):
    """One sentence: ``text == premise[start:start + len(text)]``."""

    position: int  # 0-based order in the premise
    start: int  # character offset in the premise
    text: str
    words: int  # argkb.embed.store.word_count(text), as Unit.words counts


def split_sentences(text: str | None) -> list[Span]:
    """The sentences of ``text`` in order, each an exact slice of it (no text is rewritten).

    Empty or blank text has no sentences. Paragraphs (blank lines) always end a sentence; a single
    line break does not, as syntok decides (forum posts wrap lines inside sentences).
    """
    from syntok import segmenter  # type: ignore[import-untyped]

    if not text or not text.strip():
        return []
    spans: list[Span] = []
    for paragraph in segmenter.analyze(text):
        for sentence in paragraph:
            if not sentence:
                continue
            first, last = sentence[0], sentence[-1]
            start, end = first.offset, last.offset + len(last.value)
            for cut_start, cut_end in _cuts(text, start, end):
                piece = text[cut_start:cut_end]
                lead = len(piece) - len(piece.lstrip())
                piece = piece.strip()
                if piece:
                    spans.append(Span(len(spans), cut_start + lead, piece, word_count(piece)))
    return spans


def _cuts(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """``text[start:end]`` (one syntok sentence) in the pieces the module docstring's rules cut
    it into, as ``(start, end)`` offsets; the pieces may have white space at either end."""
    for match in _CUT.finditer(text, start, end):
        if match.group("stop") and ".." in match.group("stop"):
            continue  # an ellipsis before a lowercase word: the sentence goes on
        if match.group("stop") or match.group("bracket"):
            stop = match.start("stop") if match.group("stop") else match.start("bracket")
            if _abbreviation(text, start, stop):
                continue
        if match.end() >= end:
            break
        yield start, match.end()
        start = match.end()
    yield start, end


def _abbreviation(text: str, start: int, stop: int) -> bool:
    """Whether the word before the full stop at ``stop`` (not before ``start``) makes it no
    sentence end: an abbreviation, a word with a dot inside, a letter, a list number."""
    if text[stop] != ".":
        return False
    word = _WORD_BEFORE.search(text, start, stop)
    before = word.group() if word else ""
    if not before:
        return False
    return (
        before.lower() in ABBREVIATIONS
        or "." in before
        or len(before) == 1
        or (before.isdigit() and len(before) <= 2)
    )
