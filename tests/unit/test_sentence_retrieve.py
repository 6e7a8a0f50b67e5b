"""DirichletLM over sentences and the next-sentence pairing (argkb.sentences.retrieve), on small
cases computed by hand; and the term statistics' deltas (argkb.sentences.terms)."""

from __future__ import annotations

import math

import pytest

from argkb.sentences.retrieve import (
    Neighbour,
    RankedSentence,
    TermStats,
    dirichlet_lm,
    pair_with_next,
)
from argkb.sentences.terms import MAX_TERM, term_deltas, tokenize

# a collection of 4 sentences, 20 terms: mu = mean length = 5; cf(ban) = 2, cf(cars) = 1
STATS = TermStats({"ban": 2, "cars": 1}, tokens=20, sentences=4)


def test_dirichlet_scores_by_hand() -> None:
    # p(ban|C) = 2/20, mu p = 0.5; p(cars|C) = 1/20, mu p = 0.25
    # A = ban cars now, |A| = 3: ln(1.5 / 8) + ln(1.25 / 8) = -1.673976 - 1.856298
    # B = ban ban, |B| = 2:      ln(2.5 / 7) + ln(0.25 / 7) = -1.029619 - 3.332205
    a, b = dirichlet_lm(["ban", "cars"], [["ban", "cars", "now"], ["ban", "ban"]], STATS)
    assert a == pytest.approx(-3.530274, abs=1e-6)
    assert b == pytest.approx(-4.361824, abs=1e-6)


def test_unknown_terms_are_left_out_and_repeats_count() -> None:
    doc = [["ban", "cars", "now"]]
    assert dirichlet_lm(["ban", "zebra"], doc, STATS) == dirichlet_lm(["ban"], doc, STATS)
    (twice,) = dirichlet_lm(["ban", "ban"], doc, STATS)
    assert twice == pytest.approx(2 * math.log(1.5 / 8), abs=1e-9)


def test_mu_defaults_to_the_mean_sentence_length() -> None:
    doc = [["ban", "cars", "now"]]
    assert STATS.mean_length == 5.0
    assert dirichlet_lm(["ban"], doc, STATS) == dirichlet_lm(["ban"], doc, STATS, mu=5.0)
    (other,) = dirichlet_lm(["ban"], doc, STATS, mu=10.0)  # ln((1 + 1) / 13)
    assert other == pytest.approx(math.log(2 / 13), abs=1e-9)


def test_a_longer_sentence_with_the_same_matches_scores_lower() -> None:
    short, long = dirichlet_lm(["cars"], [["cars", "x"], ["cars", "x", "y", "z", "w"]], STATS)
    assert short > long


def test_an_empty_collection_is_refused() -> None:
    with pytest.raises(ValueError, match="non-empty collection"):
        dirichlet_lm(["ban"], [["ban"]], TermStats({}, 0, 0))


def ranked(uid: str, position: int, score: float) -> RankedSentence:
    return RankedSentence(uid, f"text {uid}", uid.split("#")[0], position, score)


def n(uid: str) -> Neighbour:
    return Neighbour(uid, f"text {uid}", int(uid.split("#")[1]))


def test_pairs_take_the_next_sentence_and_never_reuse_one() -> None:
    top = [
        ranked("p#1", 1, 9.0),
        ranked("p#2", 2, 8.0),
        ranked("q#2", 2, 7.0),
        ranked("r#0", 0, 6.0),
    ]
    neighbours = {
        "p#1": (n("p#0"), n("p#2")),
        "p#2": (n("p#1"), None),
        "q#2": (n("q#1"), None),  # the last sentence of q: paired with the one before
        "r#0": (None, None),  # a premise of one sentence
    }
    pairs = pair_with_next(top, neighbours, k=10)
    got = [(p.first.uid, p.second.uid if p.second else None, p.score) for p in pairs]
    # p#2 was used as p#1's next: it does not start a pair of its own
    assert got == [("p#1", "p#2", 9.0), ("q#1", "q#2", 7.0), ("r#0", None, 6.0)]
    assert pair_with_next(top, neighbours, k=1)[0].top.uid == "p#1"


def test_tokenize_and_term_deltas() -> None:
    assert tokenize("Don't BAN cars, 3.5 times!") == ["don", "t", "ban", "cars", "3", "5", "times"]
    rows, tokens, sentences = term_deltas(["ban cars", "cars now"], ["ban ban trucks"])
    # removed: ban 1, cars 2, now 1 (4 terms, 2 sentences); added: ban 2, trucks 1 (3, 1)
    assert {r["term"]: (r["cf"], r["df"]) for r in rows} == {
        "ban": (1, 0), "cars": (-2, -2), "now": (-1, -1), "trucks": (1, 1)
    }  # fmt: skip
    assert (tokens, sentences) == (-1, -1)


def test_a_run_longer_than_a_term_is_cut() -> None:
    """From the sentence-pair audit (session 29): a 40,000-character word (a pasted blob) made a
    term too large for the sentence_term range index, and every argkb sentences run failed."""
    blob = "x" * (2 * MAX_TERM + 10)
    assert tokenize(f"A {blob} here") == ["a", "x" * MAX_TERM, "x" * MAX_TERM, "x" * 10, "here"]
    assert max(len(t.encode()) for t in tokenize("é" * 10_000)) <= 4 * MAX_TERM
