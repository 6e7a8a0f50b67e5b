"""Pairs that repeat a better pair's text: shown once, standing for the premises they repeat.

args.me posts quote the opponent, so one sentence, or the same two sentences, is in several
premises (on Webis-ArgQuality-20, 426 sentence texts are in more than one premise; the counts
are in docs/sentences.md). Each premise gives its own pair, and an answer showed the same text
twice. :func:`merge_repeats` keeps the best-ranked pair of each text and lists the lower-ranked
pairs of the same text as its ``repeats``, so the answer can name their premises' arguments too;
with ``top_once`` (the baseline's ``distinct_top``) so it does with a lower-ranked pair whose top
sentence is a sentence of a kept pair: the quoted sentence with another partner.
Texts are compared as :func:`pair_text` normalises them: case, punctuation, quote marks,
brackets and whitespace do not count (a quotation carries quote marks the original lacks).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from argkb.sentences.pipeline import ScoredPair
    from argkb.sentences.retrieve import SentencePair

__all__ = ["merge_repeats", "normalised", "pair_text"]

_NOT_WORD = re.compile(r"[\W_]+")


def normalised(text: str) -> str:
    """``text`` case-folded, with every run of non-word characters one space, trimmed."""
    return _NOT_WORD.sub(" ", text.casefold()).strip()


def pair_text(pair: SentencePair) -> str:
    """The pair's sentences in text order, :func:`normalised`; as given where that leaves
    nothing (a pair of punctuation only)."""
    texts = [pair.first.text] + ([pair.second.text] if pair.second is not None else [])
    joined = " ".join(texts)
    return normalised(joined) or joined


def _sentences(pair: SentencePair) -> list[str]:
    """The pair's sentences, each :func:`normalised` (as given where that leaves nothing)."""
    texts = [pair.first.text] + ([pair.second.text] if pair.second is not None else [])
    return [normalised(text) or text for text in texts]


def merge_repeats(
    ranked: Sequence[ScoredPair], k: int, *, top_once: bool = False
) -> list[ScoredPair]:
    """The first ``k`` pairs of ``ranked`` (best first) whose :func:`pair_text` differs from
    every better pair's and, with ``top_once``, whose top sentence is no sentence of a better
    pair (the same quotation with another partner); each with ``repeats``, the later pairs it
    stands for (all of ``ranked`` is read, not only up to the ``k``-th kept one)."""
    kept: dict[str, int] = {}
    shown: dict[str, int] = {}  # each sentence of a kept pair -> the first kept pair with it
    out: list[ScoredPair] = []
    extra: list[list[SentencePair]] = []
    for scored in ranked:
        key = pair_text(scored.pair)
        top = normalised(scored.pair.top.text) or scored.pair.top.text
        where = kept.get(key, shown.get(top) if top_once else None)
        if where is not None:
            extra[where].append(scored.pair)
            continue
        if len(out) < k:
            kept[key] = len(out)
            for sentence in _sentences(scored.pair):
                shown.setdefault(sentence, len(out))
            out.append(scored)
            extra.append([])
    return [dataclasses.replace(s, repeats=s.repeats + tuple(more)) if more else s
            for s, more in zip(out, extra, strict=True)]  # fmt: skip
