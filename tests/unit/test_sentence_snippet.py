"""Snippets (argkb.sentences.snippet): the best sentence for the query with its neighbour, on
hand-made statistics; the lead pair where no sentence holds a query term."""

from __future__ import annotations

from argkb.sentences.retrieve import TermStats
from argkb.sentences.snippet import best_pair, snippets_from
from argkb.sentences.terms import tokenize

SENTENCES = [
    "Cats sleep a lot.",
    "Coal plants pollute the air.",
    "Burning coal warms the planet.",
    "Dogs bark.",
]
# a collection of 20 tokens where "coal" occurs 4 times and "wind" twice
STATS = TermStats({"coal": 4, "wind": 2, "air": 1}, tokens=20, sentences=4)


def test_best_sentence_with_its_next_one() -> None:
    # "air" occurs only in the second sentence: it wins and the third follows it
    assert best_pair(["air"], SENTENCES, STATS) == SENTENCES[1:3]


def test_the_last_sentence_takes_its_previous_one() -> None:
    last = [*SENTENCES[:3], "Wind is clean."]
    assert best_pair(["wind"], last, STATS) == last[2:4]


def test_ties_go_to_the_earlier_sentence_and_length_counts() -> None:
    # "coal" once in sentences 2 and 3 (5 and 5 terms): equal scores, the earlier one wins
    assert best_pair(tokenize("coal"), SENTENCES, STATS) == SENTENCES[1:3]
    shorter = ["Cats sleep a lot.", "Coal, coal everywhere.", "Some coal here in the hills.",
               "Dogs bark."]  # fmt: skip
    assert best_pair(["coal"], shorter, STATS) == shorter[1:3]
    later = ["Cats sleep a lot.", "Dogs bark at night.", "Coal is dirty.", "Coal, coal, coal."]
    assert best_pair(["coal"], later, STATS) == later[2:4]


def test_no_query_term_gives_the_lead_pair_and_short_premises_none() -> None:
    assert best_pair(["unicorn"], SENTENCES, STATS) == SENTENCES[:2]
    assert best_pair(["coal"], SENTENCES[:2], STATS) is None
    assert best_pair(["coal"], SENTENCES[:1], STATS) is None
    empty = TermStats({}, tokens=0, sentences=0)
    assert best_pair(["coal"], SENTENCES, empty) == SENTENCES[:2]


def test_snippets_from_a_row() -> None:
    row = {
        "key": ["a", "b"],
        "texts": [SENTENCES, SENTENCES[:2]],
        "term": ["air"],
        "cf": [1],
        "tokens": 20,
        "sentences": 4,
    }
    assert snippets_from("Clean air now", row) == {"a": SENTENCES[1:3]}
