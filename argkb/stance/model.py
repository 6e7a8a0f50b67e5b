"""The stance model: P(pro) of a premise towards its conclusion, a logistic regression.

Features are :func:`argkb.stance.features.pair_features` over all-MiniLM-L6-v2 embeddings,
standardised with the training set's mean and scale. The weights are fitted by
``python -m bench train_stance`` on training data only (ArgKP train, Webis-ArgQuality-20, AIF
maps) and ship with argkb as ``stance_model.json``, with their provenance (data, date, measured
held-out scores). Pure NumPy to predict; fitting uses SciPy's L-BFGS.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argkb.errors import ConfigError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

    from argkb.embed.model import Embedder

MODEL_FILE = Path(__file__).with_name("stance_model.json")


def fit_logistic(
    features: ArrayLike,
    labels: ArrayLike,
    *,
    l2: float = 1.0,
    balanced: bool = True,
    intercept: bool = True,
) -> tuple[NDArray[np.float64], float]:
    """Weights and bias of an L2-regularised logistic regression.

    Minimises the mean (class-weighted) log loss plus ``l2 / n * |w|^2 / 2``; the bias is not
    penalised. With ``balanced`` each class contributes half of the loss, so the model does not
    learn the base rate of one training set (AIF maps are 83 % support). Without ``intercept``
    the bias is fixed at 0 (an all-zero feature row gets probability 0.5).

    Parameters
    ----------
    features : array_like, shape (n, d)
    labels : array_like of {0, 1}, shape (n,)
    l2 : float
        Regularisation strength (the inverse of scikit-learn's ``C``, up to the 1/n scaling).

    Returns
    -------
    weights : ndarray, shape (d,)
    bias : float
    """
    import numpy as np
    from scipy.optimize import minimize

    x = np.asarray(features, dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    n, d = x.shape
    if balanced:
        positives = max(float(y.sum()), 1.0)
        negatives = max(float(n - y.sum()), 1.0)
        weight = np.where(y > 0, n / (2 * positives), n / (2 * negatives))
    else:
        weight = np.ones(n)

    def loss(theta: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
        w, b = theta[:d], theta[d]
        z = x @ w + b
        value = float(np.mean(weight * (np.logaddexp(0.0, z) - y * z))) + l2 / (2 * n) * w @ w
        residual = weight * (1.0 / (1.0 + np.exp(-z)) - y) / n
        grad = np.concatenate([x.T @ residual + l2 / n * w, [residual.sum() if intercept else 0.0]])
        return value, grad

    result = minimize(loss, np.zeros(d + 1), jac=True, method="L-BFGS-B",
                      options={"maxiter": 2000})  # fmt: skip
    return result.x[:d], float(result.x[d])


@dataclass
class StanceModel:
    """A fitted stance model: feature blocks, standardisation, weights, provenance."""

    blocks: list[str]
    mean: list[float]
    scale: list[float]
    weights: list[float]
    bias: float
    embedding_model: str = "all-MiniLM-L6-v2"
    long_text: str = "sentences"
    trained_on: dict[str, Any] = field(default_factory=dict)

    @property
    def model_id(self) -> str:
        """A short name for provenance on the edges: ``stance-lr:<date>``."""
        return f"stance-lr:{self.trained_on.get('date', 'unknown')}"

    @classmethod
    def fit(
        cls, features: ArrayLike, labels: ArrayLike, blocks: Sequence[str], *, l2: float = 1.0
    ) -> StanceModel:
        """Standardise ``features`` and fit :func:`fit_logistic`."""
        import numpy as np

        x = np.asarray(features, dtype=np.float64)
        mean = x.mean(axis=0)
        scale = x.std(axis=0)
        scale[scale == 0] = 1.0
        weights, bias = fit_logistic((x - mean) / scale, labels, l2=l2)
        return cls(list(blocks), mean.tolist(), scale.tolist(), weights.tolist(), bias)

    def probability(self, features: ArrayLike) -> NDArray[np.float64]:
        """P(pro) for each row of a feature matrix built with :attr:`blocks`."""
        import numpy as np

        x = np.asarray(features, dtype=np.float64)
        if x.ndim != 2 or x.shape[1] != len(self.weights):
            raise ConfigError(
                f"stance model expects {len(self.weights)} features, got shape {x.shape}"
            )
        z = (x - np.asarray(self.mean)) / np.asarray(self.scale) @ np.asarray(self.weights)
        return 1.0 / (1.0 + np.exp(-(z + self.bias)))

    def predict(
        self, embedder: Embedder, premises: Sequence[str], conclusions: Sequence[str]
    ) -> NDArray[np.float64]:
        """P(pro) of each premise towards the conclusion at the same position.

        Each distinct text is embedded once (and cached by the embedder).
        """
        import numpy as np

        from argkb.stance.features import cue_counts, negate, orientation, pair_features

        if len(premises) != len(conclusions):
            raise ValueError("premises and conclusions must have the same length")
        lexical = [cue_counts(p, c) for p, c in zip(premises, conclusions, strict=True)]
        negated = [negate(c) for c in conclusions]
        vectors = embed_unique(embedder, [*premises, *conclusions, *negated])
        n = len(premises)
        orient = np.asarray([orientation(c) for c in conclusions], dtype=np.float64)
        x = pair_features(
            vectors[:n], vectors[n : 2 * n], vectors[2 * n :], _array(lexical), self.blocks, orient
        )
        return self.probability(x)

    def save(self, path: Path = MODEL_FILE) -> None:
        path.write_text(json.dumps(asdict(self), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path = MODEL_FILE) -> StanceModel:
        """The model in ``path`` (default: the one shipped with argkb)."""
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            model = cls(**raw)
        except (OSError, ValueError, TypeError) as err:
            raise ConfigError(f"{path}: not a stance model ({err})") from err
        if not (len(model.mean) == len(model.scale) == len(model.weights)):
            raise ConfigError(f"{path}: mean, scale and weights differ in length")
        return model


def embed_unique(embedder: Embedder, texts: Sequence[str]) -> NDArray[np.float32]:
    """Embeddings of ``texts`` in order, each distinct text embedded once."""
    import numpy as np

    distinct = list(dict.fromkeys(texts))
    if not distinct:
        return np.zeros((0, 384), dtype=np.float32)
    vectors = embedder.embed(distinct)
    row = {text: i for i, text in enumerate(distinct)}
    return vectors[[row[t] for t in texts]]


def _array(rows: list[list[float]]) -> NDArray[np.float64]:
    import numpy as np

    from argkb.stance.features import LEXICAL

    return np.asarray(rows, dtype=np.float64).reshape(len(rows), len(LEXICAL))
