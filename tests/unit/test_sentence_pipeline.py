"""The sentence-pair pipeline's pure parts: which sentences are sentences
(argkb.sentences.clean), the first stage's normalisation and the settings
(argkb.sentences.pipeline), and the proxy measures (argkb.eval.pairs)."""

from __future__ import annotations

import pytest

from argkb.eval.harness import Benchmark
from argkb.eval.pairs import PairBenchmark, score_pairs
from argkb.sentences.clean import proper_sentence
from argkb.sentences.pipeline import BASELINE, DEFAULT, PairSettings, ScoredPair, _first_stage
from argkb.sentences.retrieve import Neighbour, RankedSentence, SentencePair


@pytest.mark.parametrize(
    "text",
    [
        "The minimum wage should be raised to fifteen dollars.",
        "It's the only fair way to pay people.",
        "Abortion kills an innocent human being.",
        "Smoking causes cancer in most long-term smokers.",
        "Nuclear plants don't emit carbon dioxide while running.",
    ],
)
def test_sentences_are_kept(text: str) -> None:
    assert proper_sentence(text)


@pytest.mark.parametrize(
    "text",
    [
        "Rules 1.",  # too few words
        "Thank you.",
        "http://www.example.com/a?b=1 see here",  # a link and three words
        "[3] BBC News, The cost of living is rising, 2012.",  # a reference
        "Retrieved from the archive of the New York Times on the fifth.",
        "1990 2000 2010 2020 45% 50% 60% of all",  # mostly numbers
        "The Federal Minimum Wage and the Economy of America",  # a title: no verb
    ],
)
def test_non_sentences_are_dropped(text: str) -> None:
    assert not proper_sentence(text)


def ranked(scores: list[float]) -> list[RankedSentence]:
    return [RankedSentence(f"s{i}", "t", f"p{i}", 0, x) for i, x in enumerate(scores)]


def test_first_stage_bm25_over_the_best() -> None:
    assert _first_stage(ranked([4.0, 2.0, 1.0])) == [1.0, 0.5, 0.25]


def test_first_stage_dirichlet_min_max() -> None:
    assert _first_stage(ranked([-2.0, -4.0, -3.0])) == [1.0, 0.0, 0.5]
    assert _first_stage(ranked([-2.0, -2.0])) == [1.0, 1.0]


def test_settings() -> None:
    assert not BASELINE.reranks and not BASELINE.needs_embedder
    assert DEFAULT.reranks and DEFAULT.needs_embedder
    assert PairSettings(topic=0, argument=0, pairing="cosine").needs_embedder
    with pytest.raises(ValueError, match="unknown sentence model"):
        PairSettings(model="tfidf")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown pairing"):
        PairSettings(pairing="bert")  # type: ignore[arg-type]
    assert PairSettings(topic=0, argument=0, claim=0, pairing="nsp").needs_embedder
    assert PairSettings(sentence_topic=0.5).reads_sentences and not DEFAULT.reads_sentences


def pair(premise: str, first: int, second: int | None) -> ScoredPair:
    top = RankedSentence(f"{premise}-{first}", "t", premise, first, 1.0)
    one = Neighbour(top.uid, "t", first)
    two = Neighbour(f"{premise}-{second}", "t", second) if second is not None else None
    return ScoredPair(SentencePair(one, two, top), 1.0)


def test_proxy_scores_a_source_once() -> None:
    # q1 judges doc a (unit ua) with relevance 2 / quality 1, doc b (ub) 1 / 2; uc is unjudged
    benchmark = Benchmark("toy", [], {"q1": {"a": 2.0, "b": 1.0}}, None,
                          {"q1": {"ua": "a", "ub": "b"}}, {})  # fmt: skip
    data = PairBenchmark(benchmark, {"q1": {"a": 1.0, "b": 2.0}})
    ideal = PairBenchmark(benchmark, {"q1": {"a": 2.0, "b": 1.0}})
    best = score_pairs(data, "q1", [pair("ua", 0, 1), pair("ub", 3, 4)])
    assert best["rel@10"] == pytest.approx(1.0)
    assert best["coherence"] == 1.0 and best["sources@10"] == 2.0
    # the quality order is the reverse of the ideal one: (1 + 2 / log2 3) / (2 + 1 / log2 3)
    assert best["quality@10"] == pytest.approx((1 + 2 / 1.5849625) / (2 + 1 / 1.5849625))
    assert score_pairs(ideal, "q1", [pair("ua", 0, 1), pair("ub", 3, 4)])["quality@10"] == 1.0
    repeated = score_pairs(data, "q1", [pair("ua", 0, 1), pair("ua", 5, 6), pair("ub", 3, None)])
    # the second pair of ua gains nothing, ub comes third; the single sentence is not coherent
    assert repeated["rel@10"] == pytest.approx((2 + 1 / 2) / (2 + 1 / 1.5849625))
    assert repeated["coherence"] == pytest.approx(2 / 3)
    assert repeated["sources@10"] == 2.0
    assert score_pairs(data, "q1", [pair("uc", 0, 2)])["rel@10"] == 0.0
    assert score_pairs(data, "q1", [pair("uc", 0, 2)])["coherence"] == 0.0  # not adjacent


def test_next_sentence_model_by_hand() -> None:
    import numpy as np

    from argkb.sentences.next_sentence import NextSentence, load

    # 2-d embeddings: weights over [a, b, a*b, |a-b|] = 8 numbers
    model = NextSentence((1.0, 0.0, 0.0, 2.0, 0.0, 0.0, -1.0, 0.0), 0.5)
    a, b = np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]])
    # logit = 1*a0 + 2*b1 - 1*|a0-b0| + 0.5 = 1 + 2 - 1 + 0.5 = 2.5
    assert model.probabilities(a, b)[0] == pytest.approx(1 / (1 + np.exp(-2.5)))
    # the other way round: 0 + 0 - 1 + 0.5
    assert model.probabilities(b, a)[0] == pytest.approx(1 / (1 + np.exp(0.5)))
    shipped = load()
    assert len(shipped.weights) == 4 * 384
    rows = np.eye(384)[:3]
    assert shipped.probabilities(rows, rows[::-1]).shape == (3,)
