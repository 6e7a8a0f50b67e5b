"""A next-sentence model: how likely sentence ``b`` follows sentence ``a``.

Wenzlitschke & Sülzle (Touché 2022) paired sentences with BERT's next-sentence-prediction head,
whose weights cannot be downloaded here. The substitute is a logistic regression on the
all-MiniLM-L6-v2 embeddings of both, as ``[a, b, a * b, |a - b|]`` (the features of
sentence-pair classifiers since InferSent), trained on consecutive against reversed,
non-adjacent and foreign sentence pairs of Webis-ArgQuality-20's args.me premises
(``bench/train_next_sentence.py``, which also scores it on SIGIR-19 dev premises;
``next_sentence.json`` beside this file, 1,536 weights). It runs on CPU in microseconds a pair.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

MODEL = Path(__file__).with_name("next_sentence.json")


@dataclass(frozen=True)
class NextSentence:
    weights: tuple[float, ...]  # 4 x the embedding size
    bias: float

    def probabilities(self, first: ArrayLike, second: ArrayLike) -> NDArray:
        """P(the row of ``second`` follows the row of ``first``), row by row."""
        import numpy as np

        a = np.atleast_2d(np.asarray(first, np.float64))
        b = np.atleast_2d(np.asarray(second, np.float64))
        x = np.hstack([a, b, a * b, np.abs(a - b)])
        return 1.0 / (1.0 + np.exp(-(x @ np.asarray(self.weights) + self.bias)))


@cache
def load(path: Path = MODEL) -> NextSentence:
    payload = json.loads(path.read_text(encoding="utf-8"))
    return NextSentence(tuple(float(x) for x in payload["weights"]), float(payload["bias"]))
