"""The coreset's learned relevance filter: features, the logistic fit, the shipped model."""

from __future__ import annotations

import numpy as np
import pytest

from argkb.retrieve.relevance import (
    FEATURES,
    MODEL_FILE,
    RelevanceModel,
    fit_logistic,
    premise_features,
)


def test_features_are_standardised_per_candidate_set() -> None:
    sim = np.array([[1.0, 0.9, 0.7, 0.1], [0.9, 1.0, 0.65, 0.2], [0.7, 0.65, 1.0, 0.0],
                    [0.1, 0.2, 0.0, 1.0]])  # fmt: skip
    x = premise_features(
        cosine=[0.5, 0.4, 0.3, 0.9], claim_mass=[1.0, 1.0, 0.5, 0.1], similarity=sim,
        pfidf=[0.2, 0.2, 0.1, 0.0], words=[10, 12, 30, 5], same_within=0.6, dense_k=2,
    )  # fmt: skip
    assert x.shape == (4, len(FEATURES))
    np.testing.assert_allclose(x.mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(x.std(axis=0), 1.0)
    neighbours = x[:, FEATURES.index("neighbours")]
    # candidates 0 and 1 have two others within 0.6, 2 has two, 3 has none
    assert neighbours[3] < neighbours[0] == pytest.approx(neighbours[1])
    density = x[:, FEATURES.index("density")]
    assert density.argmax() == 0 and density.argmin() == 3


def test_constant_feature_and_single_candidate_do_not_divide_by_zero() -> None:
    x = premise_features([0.3], [1.0], [[1.0]], [0.0], [4])
    assert x.shape == (1, len(FEATURES)) and np.isfinite(x).all()


def test_fit_logistic_finds_the_informative_feature() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2000, 3))
    y = (x[:, 1] + 0.3 * rng.normal(size=2000) > 1.0).astype(float)  # rare positives
    w, b = fit_logistic(x, y, l2=1.0)
    assert w[1] > 5 * max(abs(w[0]), abs(w[2]))
    model = RelevanceModel([float(v) for v in w], b, features=["a", "b", "c"])
    p = model.score(x)
    assert ((p > 0.5) == (y > 0)).mean() > 0.9
    # balanced class weights: the positives' mean probability is well above the base rate
    assert p[y > 0].mean() > 0.7 > y.mean()


def test_model_round_trip_and_feature_check(tmp_path) -> None:
    model = RelevanceModel([0.1 * i for i in range(len(FEATURES))], -1.0, trained_on={"x": 1})
    model.save(tmp_path / "m.json")
    again = RelevanceModel.load(tmp_path / "m.json")
    assert again == model
    bad = RelevanceModel([1.0], 0.0, features=["cosine"])
    bad.save(tmp_path / "bad.json")
    with pytest.raises(ValueError, match="features"):
        RelevanceModel.load(tmp_path / "bad.json")


def test_the_shipped_model_loads_with_its_provenance() -> None:
    model = RelevanceModel.load(MODEL_FILE)
    assert len(model.weights) == len(FEATURES)
    assert model.trained_on["script"] == "bench/train_relevance.py"
    assert "train" in model.trained_on["data"]
