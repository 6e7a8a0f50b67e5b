"""The stance model: features, fitting, metrics, JSON round trip (no model weights, no Neo4j)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from argkb.errors import ConfigError
from argkb.stance.alignment import AlignmentModel, lexical_flip
from argkb.stance.data import StancePair
from argkb.stance.evaluate import classification_scores, held_out, logistic_fitter, topic_folds
from argkb.stance.features import (
    BLOCKS,
    LEXICAL,
    WIDTHS,
    cue_counts,
    negate,
    negation_count,
    orientation,
    pair_features,
)
from argkb.stance.model import MODEL_FILE, StanceModel, fit_logistic

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("We should abandon fossil fuels", "We should not abandon fossil fuels"),
        ("We should not abandon fossil fuels", "We should abandon fossil fuels"),
        ("We shouldn't ban guns", "We should ban guns"),
        ("Homeschooling should be banned", "Homeschooling should not be banned"),
        ("Should the minimum wage be increased?", "Should the minimum wage not be increased?"),
        ("Fossil fuels harm us", "It is not true that fossil fuels harm us"),
        ("Smoking cannot be healthy", "Smoking can be healthy"),
    ],
)
def test_negate(text: str, negated: str) -> None:
    assert negate(text) == negated
    assert negation_count(negate(text)) % 2 != negation_count(text) % 2


def test_negation_cues_and_lexical_block() -> None:
    assert negation_count("It isn't fair, and nobody wants it; not at all") == 3
    assert negation_count("Nothing") == 1 and negation_count("Notable knots") == 0
    cues = cue_counts("It is not fair but it works", "We should ban it")
    assert len(cues) == len(LEXICAL)
    assert cues[:4] == [np.log1p(1), 0.0, 1.0, np.log1p(1)]
    # an odd number of negations on both sides is no polarity difference
    assert cue_counts("It is not fair", "We should not ban it")[2] == 0.0


def test_pair_features_blocks() -> None:
    rng = np.random.default_rng(0)
    u, v, w = (rng.normal(size=(3, 4)).astype(np.float32) for _ in range(3))
    lexical = rng.normal(size=(3, len(LEXICAL)))
    orient = np.array([1.0, -1.0, 1.0])
    x = pair_features(u, v, w, lexical, BLOCKS, orient)
    assert x.shape == (3, 4 + 4 + 5 + 4 + 4 + len(LEXICAL) + len(LEXICAL) + 1)
    np.testing.assert_allclose(x[:, :4], u * v)
    np.testing.assert_allclose(x[:, 4:8], np.abs(u - v))
    np.testing.assert_allclose(x[:, 12], (u * v).sum(1) - (u * w).sum(1))
    np.testing.assert_allclose(x[:, 17:21], u * orient[:, None])
    np.testing.assert_allclose(x[:, 21 : 21 + len(LEXICAL)], lexical)
    np.testing.assert_allclose(x[:, -1], orient)
    with pytest.raises(ValueError, match="unknown feature block"):
        pair_features(u, v, w, lexical, ["nope"])
    with pytest.raises(ValueError, match="orientation"):
        pair_features(u, v, w, lexical, ["oriented"])


@pytest.mark.parametrize(
    ("conclusion", "value"),
    [
        ("We should ban human cloning", -1.0),
        ("Assisted suicide should be a criminal offence", -1.0),
        ("We should fight for the abolition of nuclear weapons", -1.0),
        ("We should legalize cannabis", 1.0),
        ("Should Gay Marriage Be Legal?", 1.0),
        ("We should not ban human cloning", 1.0),
        ("Cannabis should not be legal", -1.0),
    ],
)
def test_orientation(conclusion: str, value: float) -> None:
    assert orientation(conclusion) == value


def test_fit_logistic_matches_scikit_learn() -> None:
    """Same objective as LogisticRegression(C=1/l2, class_weight='balanced'): same solution."""
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(1)
    x = rng.normal(size=(300, 5))
    y = (x @ np.array([1.0, -2.0, 0.5, 0.0, 0.3]) + rng.normal(size=300) > 0.8).astype(int)
    weights, bias = fit_logistic(x, y, l2=2.0)
    reference = LogisticRegression(C=0.5, class_weight="balanced", tol=1e-10, max_iter=10_000)
    reference.fit(x, y)
    np.testing.assert_allclose(weights, reference.coef_[0], atol=1e-4)
    assert bias == pytest.approx(reference.intercept_[0], abs=1e-4)


def test_fit_without_intercept() -> None:
    rng = np.random.default_rng(4)
    x = rng.normal(size=(200, 2))
    y = x[:, 0] + 0.5 > 0  # a shifted boundary that an intercept would absorb
    weights, bias = fit_logistic(x, y, intercept=False)
    assert bias == 0.0 and weights[0] > 0
    assert fit_logistic(x, y)[1] > 0.5


def test_model_round_trip(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    x = rng.normal(size=(200, 6)) * [1, 10, 0.1, 1, 1, 1]
    y = x[:, 0] + x[:, 1] / 10 > 0
    model = StanceModel.fit(x, y, ["lexical"], l2=1.0)
    model.trained_on = {"date": "2026-01-01"}
    p = model.probability(x)
    assert np.mean((p >= 0.5) == y) > 0.9
    path = tmp_path / "m.json"
    model.save(path)
    again = StanceModel.load(path)
    np.testing.assert_allclose(again.probability(x), p)
    assert again.model_id == "stance-lr:2026-01-01"
    with pytest.raises(ConfigError, match="expects 6 features"):
        again.probability(x[:, :3])
    path.write_text("{}")
    with pytest.raises(ConfigError, match="not a stance model"):
        StanceModel.load(path)


def test_shipped_models_load() -> None:
    model = StanceModel.load(MODEL_FILE)
    assert len(model.weights) == sum(WIDTHS[b] for b in model.blocks)
    assert model.trained_on["script"] == "bench/train_stance.py"
    assert "dev" not in model.trained_on["data"].replace("never ArgKP dev", "")
    AlignmentModel.load()


def test_classification_scores_match_scikit_learn() -> None:
    from sklearn.metrics import accuracy_score, f1_score

    rng = np.random.default_rng(3)
    y, p = rng.random(50) > 0.4, rng.random(50) > 0.5
    acc, f1 = classification_scores(y, p)
    assert acc == pytest.approx(accuracy_score(y, p))
    assert f1 == pytest.approx(f1_score(y, p, average="macro"))
    # a constant answer has F1 0 for the class it never predicts
    assert classification_scores([True, True, False], [True] * 3) == pytest.approx((2 / 3, 0.4))


def _pairs(dataset: str, groups: int, per: int, split: str = "") -> list[StancePair]:
    return [
        StancePair(f"topic {g}", f"premise {g}.{i}", i % 2 == 0, str(g), dataset, split)
        for g in range(groups)
        for i in range(per)
    ]


def test_topic_folds_are_disjoint() -> None:
    pairs = _pairs("argquality", 20, 3)
    folds = topic_folds(pairs, 5)
    assert sorted(i for f in folds for i in f) == list(range(60))
    groups = [{pairs[i].group for i in f} for f in folds]
    assert all(len(g) == 4 for g in groups)
    assert all(not (a & b) for j, a in enumerate(groups) for b in groups[j + 1 :])


def test_held_out_never_trains_on_test_topics_or_argkp_dev() -> None:
    pairs = _pairs("argkp", 4, 4, "train") + _pairs("argkp", 2, 4, "dev")
    pairs += _pairs("argquality", 10, 4)
    seen: list[set[tuple[str, str, str]]] = []
    x = np.arange(len(pairs), dtype=float)[:, None]

    def fit(train_x: np.ndarray, train_y: np.ndarray):
        seen.append({(pairs[int(i)].dataset, pairs[int(i)].split, pairs[int(i)].group)
                     for i in train_x[:, 0]})  # fmt: skip
        return lambda test_x: np.ones(len(test_x))

    rows = held_out(pairs, x, fit, folds=5)
    assert [r.dataset for r in rows] == ["argkp", "argquality"]
    assert all(("argkp", "dev", g) not in s for s in seen for g in ("0", "1"))
    assert rows[0].pairs == 8 and rows[1].pairs == 40 and rows[1].topics == 10
    # always "pro" on balanced data: accuracy = majority = .5
    assert rows[1].accuracy == pytest.approx(0.5) and rows[1].majority == pytest.approx(0.5)
    for fold_train in seen[1:]:
        assert len({g for d, _, g in fold_train if d == "argquality"}) == 8
    assert logistic_fitter(1.0)(np.eye(2), np.array([True, False]))(np.eye(2)).shape == (2,)


@pytest.mark.parametrize(
    ("query", "claim", "flip"),
    [
        ("We should not abandon fossil fuels", "We should abandon fossil fuels", 1.0),
        ("We should keep fossil fuels", "We should abandon fossil fuels", 1.0),
        ("We should abandon fossil fuels", "Fossil fuels should be abandoned", -1.0),
        ("We shouldn't keep fossil fuels", "We should abandon fossil fuels", -1.0),
    ],
)
def test_lexical_flip(query: str, claim: str, flip: float) -> None:
    got, overlap = lexical_flip(query, claim)
    assert got == flip
    assert overlap > 0.3


@pytest.mark.parametrize(
    ("claim", "flip"),
    [
        ("Social media is bad for society", -1.0),  # was +1: "good" of "than good" vs "bad"
        ("Social media helps people stay connected", 1.0),  # was -1: help / harm
        ("Social media is good for people", 1.0),  # good / harm
        ("Social media does more good than harm", 1.0),
    ],
)
def test_a_comparisons_foil_is_not_its_side(claim: str, flip: float) -> None:
    """The sample's wrong sides (issue 28, item 4): in "more harm than good" the side is harm;
    "good" is what it is weighed against."""
    assert lexical_flip("Social media does more harm than good", claim)[0] == flip
    assert (
        lexical_flip("Nuclear power is better than coal", "Nuclear power is worse than coal")[0]
        == 1.0
    )


def test_scores_of_per_topic_and_topic_bootstrap() -> None:
    """Issue 29, item 3: each row's per-topic accuracy, and a 95 % interval from resampling
    whole topics (so one topic all right and one all wrong span [0, 1])."""
    from argkb.stance.evaluate import scores_of

    truth = [True, True, False, False, True, False]
    predicted = [True, True, False, True, False, True]
    groups = ["a", "a", "a", "b", "b", "b"]
    row = scores_of("d", "s", groups, truth, predicted)
    assert row.per_topic == {"a": (3, 1.0), "b": (3, 0.0)}
    assert row.accuracy == pytest.approx(0.5) and row.topics == 2 and row.pairs == 6
    assert row.interval == (0.0, 1.0)
    assert (row.majority, row.pro_share) == (pytest.approx(0.5), pytest.approx(0.5))
    same = scores_of("d", "s", groups, truth, truth)
    assert same.interval == (1.0, 1.0) and same.macro_f1 == 1.0
    assert scores_of("d", "s", ["a"] * 3, truth[:3], predicted[:3]).interval is None


def test_sigir19_pairs_are_judged_stances_towards_the_title_by_issue() -> None:
    """SIGIR-19's stance pairs: Pro / Con towards the debate's title ("Not specified" left
    out), an argument judged for both topics of an issue once, grouped by issue; held out by
    issue like the other datasets."""
    from argkb.stance.data import read_pairs

    pairs = read_pairs("sigir19", FIXTURES / "sigir19")
    assert [(p.conclusion, p.pro, p.group) for p in pairs] == [
        ("Homework should be abolished", True, "2"),
        ("Homework should be abolished", False, "2"),
        ("School uniforms are a good idea", False, "4"),
        ("Homework is useful", False, "2"),  # topic 12, the homework issue's neutral topic
        ("School uniforms", True, "4"),
    ]
    assert all(p.dataset == "sigir19" and p.premise for p in pairs)
    x = np.zeros((len(pairs), 1))
    rows = held_out(pairs, x, lambda tx, ty: lambda t: np.ones(len(t)), folds=5)
    assert [(r.dataset, r.split, r.topics) for r in rows] == [
        ("sigir19", "leave-issues-out, 2 folds", 2)
    ]
    assert rows[0].per_topic == {"2": (3, pytest.approx(1 / 3)), "4": (2, 0.5)}


def test_held_out_without_training_pairs_says_what_to_add() -> None:
    """'argkb eval stance --sigir19 DIR' alone ended in ZeroDivisionError: the shipped recipe
    trains on ArgKP and ArgQuality only, so nothing was left to fit."""
    from argkb.errors import ArgKBError

    pairs = _pairs("sigir19", 6, 4)
    x = np.arange(len(pairs), dtype=float)[:, None]
    with pytest.raises(ArgKBError, match="no pro and con pairs to train on for sigir19"):
        held_out(pairs, x, logistic_fitter(1.0), train_on=["argkp", "argquality"])


def test_a_text_both_trained_on_and_scored_is_left_out_of_training() -> None:
    """ArgQuality and SIGIR-19 share args.me posts: a held-out fold never trains on a text it
    scores, case and spacing aside (argkb.stance.data.without_texts_of)."""
    from argkb.stance.data import without_texts_of
    from argkb.stance.evaluate import _training

    shared = "The death penalty deters  crime."
    pairs = [
        StancePair("Should it be allowed?", shared, True, "t1", "argquality"),
        StancePair("Should it be allowed?", "Other text.", False, "t1", "argquality"),
        StancePair("Death penalty", shared.lower(), True, "issue 13", "sigir19"),
    ]
    everything = np.arange(len(pairs))
    train = _training(pairs, everything, np.asarray([2]), None)
    assert train.tolist() == [1]
    assert without_texts_of(pairs[:2], pairs[2:]) == [pairs[1]]
    assert without_texts_of(pairs[2:], pairs[:2]) == []
