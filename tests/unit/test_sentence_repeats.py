"""Pairs that repeat a better pair's text (argkb.sentences.repeats): args.me posts quote each
other, so the same sentences come back from several premises; an answer shows them once."""

from __future__ import annotations

from argkb.sentences.pipeline import ScoredPair
from argkb.sentences.repeats import merge_repeats, normalised, pair_text
from argkb.sentences.retrieve import Neighbour, RankedSentence, SentencePair


def pair(premise: str, first: str, second: str | None = None, score: float = 1.0) -> ScoredPair:
    top = RankedSentence(f"{premise}-0", first, premise, 0, score)
    other = Neighbour(f"{premise}-1", second, 1) if second is not None else None
    return ScoredPair(SentencePair(Neighbour(top.uid, first, 0), other, top), score)


def test_normalised_ignores_case_punctuation_quotes_and_spacing() -> None:
    assert normalised('"Animal  testing is CRUEL."') == "animal testing is cruel"
    assert normalised("\u201canimal testing\u201d is cruel!") == "animal testing is cruel"
    assert normalised("(animal_testing) is cruel") == "animal testing is cruel"
    assert normalised("Animal testing is cruel") != normalised("Animal testing is kind")


def test_pair_text_joins_both_sentences_in_text_order() -> None:
    assert pair_text(pair("p", "One two.", "Three four.").pair) == "one two three four"
    assert pair_text(pair("p", "One two.").pair) == "one two"
    assert pair_text(pair("p", "...").pair) == "..."  # nothing left: compared as given


def test_a_repeat_is_left_out_and_listed_with_the_better_pair() -> None:
    ranked = [
        pair("a", "Animal tests are cruel.", "They cause pain.", 3.0),
        pair("b", "Zoos protect species.", "They breed them.", 2.5),
        pair("c", '"animal tests are cruel."', '"They cause pain."', 2.0),  # a quotation of a
        pair("d", "Animal tests are cruel.", "But they save lives.", 1.5),  # other partner
        pair("e", "Animal tests are cruel.", "They cause pain.", 1.0),
    ]
    merged = merge_repeats(ranked, k=10)
    assert [s.pair.top.premise for s in merged] == ["a", "b", "d"]
    assert [r.top.premise for r in merged[0].repeats] == ["c", "e"]
    assert merged[1].repeats == () and merged[2].repeats == ()
    assert [s.score for s in merged] == [3.0, 2.5, 1.5]  # the best-ranked one of each text


def test_k_counts_distinct_texts_and_later_repeats_are_still_listed() -> None:
    ranked = [
        pair("a", "Guns kill people every day."),
        pair("b", "Guns kill people every day."),
        pair("c", "Guns protect their owners."),
        pair("d", "Gun laws do not stop criminals."),
        pair("e", "guns protect their owners"),
    ]
    merged = merge_repeats(ranked, k=2)
    assert [s.pair.top.premise for s in merged] == ["a", "c"]
    assert [r.top.premise for r in merged[0].repeats] == ["b"]
    assert [r.top.premise for r in merged[1].repeats] == ["e"]  # after the k-th kept pair
    assert merge_repeats(ranked, k=0) == []


def test_top_once_leaves_out_a_top_sentence_shown_with_another_partner() -> None:
    """The baseline (BM25 top sentence + next) showed a quoted sentence again with another
    partner (6 of its 400 pairs on Webis-ArgQuality-20's 40 queries); with ``top_once`` a pair
    whose top sentence is a sentence of a better pair stands behind that pair, as a repeat."""
    ranked = [
        pair("a", "Animal tests are cruel.", "They cause pain.", 3.0),
        pair("b", "Zoos protect species.", "They breed them.", 2.5),
        pair("d", '"Animal tests are cruel!"', "But they save lives.", 2.0),  # quoted, new partner
        pair("f", "They cause pain.", "Labs deny it.", 1.5),  # a better pair's second sentence
        pair("g", "Labs follow rules.", "Animal tests are cruel.", 1.0),  # top is new: kept
    ]
    assert [s.pair.top.premise for s in merge_repeats(ranked, k=10)] == ["a", "b", "d", "f", "g"]
    merged = merge_repeats(ranked, k=10, top_once=True)
    assert [s.pair.top.premise for s in merged] == ["a", "b", "g"]
    assert [r.top.premise for r in merged[0].repeats] == ["d", "f"]


def test_the_baseline_shows_a_top_sentence_once_and_the_default_is_unchanged() -> None:
    from argkb.sentences.pipeline import BASELINE, DEFAULT

    assert BASELINE.distinct_text and BASELINE.distinct_top
    assert DEFAULT.distinct_text and not DEFAULT.distinct_top  # its measured answers stay
