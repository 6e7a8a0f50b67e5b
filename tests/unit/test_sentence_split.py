"""Sentence splitting of forum premises (argkb.sentences.split): every sentence is an exact slice
of its premise, and the cases that broke pysbd on Webis-ArgQuality-20 premises split well."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from argkb.embed.store import word_count
from argkb.sentences.split import split_sentences


def texts(text: str) -> list[str]:
    return [span.text for span in split_sentences(text)]


@pytest.mark.parametrize("blank", [None, "", "   ", "\n\n\t"])
def test_blank_text_has_no_sentences(blank: str | None) -> None:
    assert split_sentences(blank) == []


def test_abbreviations_do_not_end_sentences() -> None:
    assert texts("Dr. Smith said e.g. taxes rise. The U.S. economy grows.") == [
        "Dr. Smith said e.g. taxes rise.",
        "The U.S. economy grows.",
    ]


def test_a_url_stays_in_one_sentence() -> None:
    # pysbd cuts this URL after '?'
    assert texts("See http://www.example.com/a?b=1. It says so! Really?? Yes...") == [
        "See http://www.example.com/a?b=1.",
        "It says so!",
        "Really??",
        "Yes...",
    ]


def test_a_missing_space_after_the_full_stop_still_splits() -> None:
    # from a Webis-ArgQuality-20 premise; pysbd keeps the two together
    text = "The gunman killed 20 people.According to the reports most shooters own guns."
    assert texts(text) == [
        "The gunman killed 20 people.",
        "According to the reports most shooters own guns.",
    ]


def test_a_blank_line_ends_a_sentence_without_a_full_stop() -> None:
    assert texts("First point without a stop\n\nSecond point here.") == [
        "First point without a stop",
        "Second point here.",
    ]


def test_positions_offsets_and_word_counts() -> None:
    text = "  One two three.   Four five!\n\nSix"
    spans = split_sentences(text)
    assert [s.position for s in spans] == [0, 1, 2]
    assert [s.start for s in spans] == [2, 19, 31]
    assert [s.words for s in spans] == [3, 2, 1]


@given(st.text(alphabet=st.sampled_from(list("ab .!?\n\"'()é😀")), max_size=80))
def test_every_sentence_is_the_slice_at_its_offset(text: str) -> None:
    spans = split_sentences(text)
    assert [s.position for s in spans] == list(range(len(spans)))
    end = 0
    for span in spans:
        assert span.start >= end  # in order, not overlapping
        assert text[span.start : span.start + len(span.text)] == span.text
        assert span.text.strip() and span.words == word_count(span.text)
        end = span.start + len(span.text)
    # nothing but white space is left out
    covered = set().union(*(range(s.start, s.start + len(s.text)) for s in spans))
    assert all(ch.isspace() for i, ch in enumerate(text) if i not in covered)
