"""The relevance filter of the coreset ranker: r(p|q) for each candidate premise, learned.

Fromm et al. (ECIR 2021, Sec. 3.1) score each candidate premise with a classifier trained on
premise-claim relevance, and feed its likelihood to the biased coreset (Algorithm 1). Plain cosine
to the query is a weak stand-in: on ArgKP a premise is relevant when it makes a *key point*, a
point many arguments make, and cosine to the topic sentence does not see that (the cosine
baseline is below BM25 there). argkb's filter is a logistic regression over a few features of
each candidate, computed from the candidate set of the query alone:

* ``cosine``: cosine of premise and query embeddings;
* ``claim_mass``: the summed P(c|q) of the retrieved claims the premise is used for;
* ``neighbours``: log(1 + the number of other candidates of the same stance within the premise
  clustering distance), i.e. how many candidates say the same thing (the signal behind pf of
  Dumani et al.);
* ``density``: mean similarity to its 5 most similar candidates of the same stance;
* ``pfidf``: the premise's share of P(pi|q) from the pf-icf ranker, scaled to the best candidate;
* ``length``: log of the premise's length in words.

Each feature is standardised within the query's candidate set (z-scores), so the model compares
candidates of one query with each other and carries over to corpora of other sizes. The weights
are fitted on ArgKP *train* (``python -m bench train_relevance``) and ship with argkb as
``relevance_model.json``; the output is a probability, on the same scale as the similarities the
coreset weighs it against. Pure NumPy; fitting uses SciPy's L-BFGS.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

FEATURES = ("cosine", "claim_mass", "neighbours", "density", "pfidf", "length")
MODEL_FILE = Path(__file__).with_name("relevance_model.json")


def premise_features(
    cosine: ArrayLike,
    claim_mass: ArrayLike,
    similarity: ArrayLike,
    pfidf: ArrayLike,
    words: ArrayLike,
    *,
    same_within: float = 0.6,
    dense_k: int = 5,
) -> NDArray[np.float64]:
    """The standardised feature matrix, shape ``(n, len(FEATURES))``, of one candidate set.

    ``similarity`` is the cosine matrix of the candidates (one stance of one query);
    ``same_within`` the cosine at which two premises count as saying the same thing (the
    complete-linkage cut 0.40 as a similarity).
    """
    import numpy as np

    sim = np.array(similarity, dtype=np.float64)
    n = len(sim)
    if n == 0:
        return np.zeros((0, len(FEATURES)))
    np.fill_diagonal(sim, -np.inf)
    neighbours = np.log1p((sim >= same_within).sum(axis=1))
    if n > 1:
        k = min(dense_k, n - 1)
        density = np.sort(sim, axis=1)[:, -k:].mean(axis=1)
    else:
        density = np.zeros(1)
    pf = np.asarray(pfidf, dtype=np.float64)
    pf = pf / pf.max() if pf.max() > 0 else pf
    columns = [
        np.asarray(cosine, dtype=np.float64),
        np.asarray(claim_mass, dtype=np.float64),
        neighbours,
        density,
        pf,
        np.log1p(np.asarray(words, dtype=np.float64)),
    ]
    x = np.stack(columns, axis=1)
    spread = x.std(axis=0)
    return (x - x.mean(axis=0)) / np.where(spread > 1e-12, spread, 1.0)


@dataclass
class RelevanceModel:
    """Logistic regression ``r = sigmoid(bias + weights . features)``."""

    weights: list[float]
    bias: float
    features: list[str] = field(default_factory=lambda: list(FEATURES))
    trained_on: dict[str, Any] = field(default_factory=dict)

    def score(self, features: ArrayLike) -> NDArray[np.float64]:
        import numpy as np

        z = np.asarray(features, dtype=np.float64) @ np.asarray(self.weights) + self.bias
        return 1.0 / (1.0 + np.exp(-z))

    def save(self, path: Path = MODEL_FILE) -> None:
        path.write_text(json.dumps(asdict(self), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path = MODEL_FILE) -> RelevanceModel:
        model = cls(**json.loads(path.read_text(encoding="utf-8")))
        if tuple(model.features) != FEATURES:
            raise ValueError(f"{path}: features {model.features} are not {list(FEATURES)}")
        return model


def fit_logistic(
    features: ArrayLike, labels: ArrayLike, *, l2: float = 1.0
) -> tuple[NDArray[np.float64], float]:
    """Weights and bias minimising the mean log loss plus ``l2 / n * |w|^2 / 2`` (no bias penalty).

    Classes are weighted to balance (each class contributes half of the loss), so the model
    ranks well without learning the base rate of one training set.
    """
    import numpy as np
    from scipy.optimize import minimize

    x = np.asarray(features, dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    n, d = x.shape
    positives = max(float(y.sum()), 1.0)
    negatives = max(float(n - y.sum()), 1.0)
    weight = np.where(y > 0, n / (2 * positives), n / (2 * negatives))

    def loss(theta: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
        w, b = theta[:d], theta[d]
        z = x @ w + b
        # log(1 + exp(z)) - y z, computed stably
        value = float(np.mean(weight * (np.logaddexp(0.0, z) - y * z))) + l2 / (2 * n) * w @ w
        residual = weight * (1.0 / (1.0 + np.exp(-z)) - y) / n
        grad = np.concatenate([x.T @ residual + l2 / n * w, [residual.sum()]])
        return value, grad

    result = minimize(loss, np.zeros(d + 1), jac=True, method="L-BFGS-B")
    return result.x[:d], float(result.x[d])
