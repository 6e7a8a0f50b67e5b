"""Negation of an English sentence by rule, and the negation cues it recognises.

Used by the stance features (:mod:`argkb.stance.features`, the ``contrast`` block) and by the
embedding of every claim's negation (:func:`argkb.embed.store.embed_negations`); it sits below
both, so that embedding does not import the stance package (which imports embedding).
"""

from __future__ import annotations

import re

NEGATIONS = frozenset({
    "not", "no", "never", "none", "nothing", "nobody", "neither", "nor", "cannot", "without",
    "n't", "nowhere",
})  # fmt: skip
# auxiliaries and modals after which English puts "not"
_AUX = frozenset({
    "should", "must", "is", "are", "was", "were", "can", "could", "will", "would", "may",
    "might", "shall", "has", "have", "had", "do", "does", "did", "ought", "need",
})  # fmt: skip
_CONTRACTED = {
    "shouldn't": "should", "mustn't": "must", "isn't": "is", "aren't": "are", "wasn't": "was",
    "weren't": "were", "can't": "can", "couldn't": "could", "won't": "will", "wouldn't": "would",
    "mightn't": "might", "hasn't": "has", "haven't": "have", "hadn't": "had", "don't": "do",
    "doesn't": "does", "didn't": "did", "cannot": "can", "needn't": "need",
}  # fmt: skip
_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)?|n't")
_WORD = re.compile(r"\S+")


def tokens(text: str) -> list[str]:
    """Lower-case word tokens; ``don't`` stays one token and also counts as a negation."""
    return _TOKEN.findall(text.lower().replace("\u2019", "'"))


def negation_count(text: str) -> int:
    """How many negation cues (:data:`NEGATIONS`, or a contracted ``n't``) ``text`` has."""
    return sum(1 for t in tokens(text) if t in NEGATIONS or t.endswith("n't"))


def negate(text: str) -> str:
    """The sentence with its polarity flipped, by rule (for the ``contrast`` features).

    An auxiliary followed by ``not`` (or a contracted one, ``cannot``) loses the negation;
    otherwise ``not`` goes after the first auxiliary or modal ("We should ban X" -> "We should
    not ban X"); a question that starts with one ("Should X be Y?") gets ``not`` before its
    first ``be``/verb after the subject, approximated as the next ``be``; a sentence without an
    auxiliary is prefixed with "It is not true that".
    """
    words = _WORD.findall(text)
    lower = [w.lower().strip(".,;:!?\"'") for w in words]
    for i, word in enumerate(lower):
        if word in _CONTRACTED:
            base = _CONTRACTED[word]
            words[i] = _match_case(base, words[i]) + words[i][len(word) :]
            return " ".join(words)
        if word in _AUX and i + 1 < len(lower) and lower[i + 1] == "not":
            return " ".join(words[: i + 1] + words[i + 2 :])
    for i, word in enumerate(lower):
        if word in _AUX:
            if i == 0 and "be" in lower[1:]:
                j = lower.index("be", 1)
                return " ".join([*words[:j], "not", *words[j:]])
            return " ".join([*words[: i + 1], "not", *words[i + 1 :]])
    if not words:
        return text
    first = words[0] if words[0][:2].isupper() else words[0][:1].lower() + words[0][1:]
    return " ".join(["It is not true that", first, *words[1:]])


def _match_case(word: str, like: str) -> str:
    return word.capitalize() if like[:1].isupper() else word
