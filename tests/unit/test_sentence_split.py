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


# -- the audit's cases (session 30): syntok alone left each of these joined ------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # forum posts without capitals (Webis-ArgQuality-20: "look at minimum wage. it exists now.")
        ("look at minimum wage. it exists now. the stock market is fine.",
         ["look at minimum wage.", "it exists now.", "the stock market is fine."]),
        ("why did you say that? also, i never said so!",
         ["why did you say that?", "also, i never said so!"]),
        # a stop inside brackets that syntok skips whole
        ("It was fine (mostly.) Then it broke.", ["It was fine (mostly.)", "Then it broke."]),
        ("They vote (they are allowed to, and we are just fine.) It is not like that.",
         ["They vote (they are allowed to, and we are just fine.)", "It is not like that."]),
        # an emoji before the stop, or instead of it
        ("I love this idea \U0001f600. Next one here.", ["I love this idea \U0001f600.",
                                                          "Next one here."]),
        ("Great point \U0001f44d\U0001f44d Another one here.",
         ["Great point \U0001f44d\U0001f44d", "Another one here."]),
        # a dotted initialism that ends the sentence
        ("Dr. Smith works in the U.S. He is good.", ["Dr. Smith works in the U.S.", "He is good."]),
        # one list item a line, no full stops
        ("Reasons:\n- cost\n- safety\n2) jobs", ["Reasons:", "- cost", "- safety", "2) jobs"]),
    ],
)  # fmt: skip
def test_boundaries_a_reader_sees(text: str, expected: list[str]) -> None:
    assert texts(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Many foods, e.g. apples, are healthy and cheap.",
        "Some, i.e. most, are cheap and good.",
        "It costs 5 oz. of gold vs. the rest, approx. a lot.",
        "In Oleson v. Bd. of Education the court ruled.",
        "Prof. Jones met Mr. Brown at 3 p.m. yesterday.",
        "The U.S. Army is large and the U.S. economy grows.",
        "Inflation was 3.5 percent and rose to 4.25 later.",
        "well... maybe not, so... i think so.",
        'He asked "why?" and left the room.',
        "Rules 1. you must post and 2. you must wait.",
    ],
)
def test_no_boundary_inside(text: str) -> None:
    assert texts(text) == [text]


@pytest.mark.parametrize("control", ["\x00", "\x07", "\x0b", "\x1b[31m", "\x7f", "\u200b", "\xad"])
def test_a_control_character_before_the_stop(control: str) -> None:
    assert texts(f"It is here{control}. Next one.") == [f"It is here{control}.", "Next one."]
