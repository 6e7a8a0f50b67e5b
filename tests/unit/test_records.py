"""Unit identity: ``normalise_text`` and ``text_key`` (loaders/records.py), by example and by
property (hypothesis)."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from argkb.loaders.records import normalise_text, text_key

BOUNDED = settings(max_examples=200, deadline=1000)

# What the module docstring strips from both ends, and how it joins words.
EDGE = "\"'\u201c\u201d\u2018\u2019\u00ab\u00bb .!?;:"
WHITESPACE = " \t\n\r\x0b\x0c\u00a0\u2003\u3000"

# Text as corpora hold it: letters, digits, punctuation, symbols and whitespace of the scripts
# below U+3000 (Latin, Greek, Cyrillic, Hebrew, Arabic, Indic, ...), without combining marks.
CORPUS_TEXT = st.text(
    st.characters(max_codepoint=0x2FFF, exclude_categories=("Mn", "Mc", "Me", "Cs")),
    max_size=40,
)
EDGES = st.text(st.sampled_from(EDGE + WHITESPACE), max_size=5)


def test_documented_examples_are_one_unit() -> None:
    # the module docstring's examples
    same = ["Fossil fuels harm us.", " fossil  FUELS harm us", "fossil fuels harm us?"]
    assert {normalise_text(text) for text in same} == {"fossil fuels harm us"}
    assert len({text_key(text) for text in same}) == 1
    assert text_key("Fossil fuels harm us") != text_key("Fossil fuels help us")
    # NFKC folds compatibility forms; case folding maps sharp s to ss
    assert normalise_text("\u201cSTRASSE \ufb01ne!\u201d") == normalise_text("stra\u00dfe fine")


@BOUNDED
@given(CORPUS_TEXT)
def test_normalise_text_is_idempotent_on_corpus_text(text: str) -> None:
    once = normalise_text(text)
    assert normalise_text(once) == once


@BOUNDED
@given(CORPUS_TEXT)
def test_normalised_text_is_trimmed_single_spaced_and_folded(text: str) -> None:
    out = normalise_text(text)
    assert out == out.strip(EDGE + WHITESPACE)
    assert not re.search(r"\s\s", out) and not re.search(r"[^\S ]", out)
    assert out == out.casefold()


@BOUNDED
@given(CORPUS_TEXT, EDGES, EDGES, st.lists(st.sampled_from(WHITESPACE), min_size=1, max_size=3))
def test_surrounding_punctuation_and_spacing_do_not_change_the_key(
    text: str, before: str, after: str, gap: list[str]
) -> None:
    key = text_key(text)
    assert re.fullmatch(r"t:[0-9a-f]{24}", key)
    assert text_key(before + text + after) == key
    words = text.split()
    assert text_key("".join(gap).join(words)) == text_key(" ".join(words))


@BOUNDED
@given(st.text(st.characters(codec="latin-1"), max_size=40))
def test_case_does_not_change_the_key_of_latin_text(text: str) -> None:
    key = text_key(text)
    assert text_key(text.upper()) == key and text_key(text.lower()) == key


# Casefolding runs after NFKC, so its output need not be NFKC: "ß" + U+0301 folds to "ss" + U+0301,
# which the next NFKC composes to "s" + "ś"; "İ" folds to "i" + U+0307, after which a mark of a
# lower combining class is out of canonical order (NFKC reorders it). normalise(normalise(t))
# then differs from normalise(t), and texts that differ only so get different unit keys.
# NFKC(casefold(NFKC(t))) is idempotent on every such pair (checked exhaustively over all pairs
# of a case- or compatibility-changing character and a combining one).
NON_IDEMPOTENT = ["\u00df\u0301", "\u0130\u0316", "\u0124\u0331", "\u0130\uff9e"]


@BOUNDED
@given(st.text(max_size=20))
@example(NON_IDEMPOTENT[0])
@example(NON_IDEMPOTENT[1])
@example(NON_IDEMPOTENT[2])
@example(NON_IDEMPOTENT[3])
def test_normalise_text_is_idempotent(text: str) -> None:
    once = normalise_text(text)
    assert normalise_text(once) == once


@BOUNDED
@given(st.text(max_size=20))
@example("\u1fe2")
def test_case_does_not_change_the_key(text: str) -> None:
    key = text_key(text)
    assert text_key(text.upper()) == key and text_key(text.lower()) == key
