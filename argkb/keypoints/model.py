"""The matching model: P(argument matches key point) for pairs of one topic and stance.

Features of a pair (argument a, key point k), from all-MiniLM-L6-v2 vectors ``ea``, ``ek``
(normalised) and words (:func:`argkb.keypoints.match.tokens`):

* cosine, and the cosine relative to the argument's other candidates (minus their maximum,
  minus their mean), so that the score says how clearly k is a's best key point;
* BM25 of a against k, the same relative to a's other candidates, word overlap (Jaccard, share
  of k's words in a);
* the lengths of a and k in words (log), and the number of candidates;
* k's rank among a's candidates by cosine and by BM25, the margin of a's best cosine over its
  second, k's mean cosine to all arguments of the group (a generic key point matches more), and
  the cosines of a and of k to the topic.

(``ea * ek`` and ``|ea - ek|``, 768 more features as in sentence-pair classifiers over
embeddings, made the model worse on held-out train topics: mAP strict .664 against .766 with the
scalar features alone; they let it learn the training topics.)

A small multi-layer perceptron (scikit-learn ``MLPClassifier``) is trained on ArgKP-2021 train
only (:mod:`argkb.keypoints.train`); its weights ship as ``match_model.npz`` and run here in
numpy, so scoring needs neither scikit-learn nor a pickle.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from argkb.keypoints.match import Scores, Task, bm25_scores, tokens

if TYPE_CHECKING:
    from collections.abc import Mapping

    import numpy as np
    from numpy.typing import NDArray

MODEL_FILE = Path(__file__).with_name("match_model.npz")
SCALAR_FEATURES = (
    "cos",
    "cos_minus_max",
    "cos_minus_mean",
    "bm25",
    "bm25_minus_max",
    "jaccard",
    "kp_coverage",
    "log_arg_words",
    "log_kp_words",
    "candidates",
    "cos_rank",
    "cos_margin",
    "bm25_rank",
    "kp_centrality",
    "arg_topic_cos",
    "kp_topic_cos",
)


def pair_features(
    task: Task, vectors: Mapping[str, NDArray[np.float32]]
) -> tuple[list[tuple[str, str]], NDArray[np.float32]]:
    """The (arg_id, kp_id) pairs of ``task`` (same topic and stance) and their feature rows."""
    import numpy as np

    bm25 = bm25_scores(task)
    keys: list[tuple[str, str]] = []
    rows: list[NDArray[np.float32]] = []
    for group in task.groups:
        if not group.key_points:
            continue
        kp_vecs = np.vstack([vectors[text] for _, text in group.key_points])
        kp_words = [set(tokens(text)) for _, text in group.key_points]
        kp_lens = [len(tokens(text)) for _, text in group.key_points]
        arg_vecs = np.vstack([vectors[text] for _, text in group.arguments])
        centrality = (arg_vecs @ kp_vecs.T).mean(axis=0)  # how generic each key point is
        topic_vec = vectors[group.topic]
        kp_topic = kp_vecs @ topic_vec
        for arg_id, text in group.arguments:
            ea = vectors[text]
            cos = kp_vecs @ ea
            cos_sorted = np.sort(cos)[::-1]
            margin = cos_sorted[0] - (cos_sorted[1] if len(cos_sorted) > 1 else 0.0)
            cos_rank = np.argsort(np.argsort(-cos))
            words = tokens(text)
            arg_words = set(words)
            b = np.array([bm25[arg_id][kp_id] for kp_id, _ in group.key_points])
            b_rank = np.argsort(np.argsort(-b, kind="stable"), kind="stable")
            arg_topic = float(ea @ topic_vec)
            for j, (kp_id, _) in enumerate(group.key_points):
                common = len(arg_words & kp_words[j])
                scalars = np.array(
                    [
                        cos[j],
                        cos[j] - cos.max(),
                        cos[j] - cos.mean(),
                        b[j],
                        b[j] - b.max(),
                        common / max(len(arg_words | kp_words[j]), 1),
                        common / max(len(kp_words[j]), 1),
                        math.log1p(len(words)),
                        math.log1p(kp_lens[j]),
                        float(len(group.key_points)),
                        float(cos_rank[j]),
                        float(margin),
                        float(b_rank[j]),
                        float(centrality[j]),
                        arg_topic,
                        float(kp_topic[j]),
                    ],
                    dtype=np.float32,
                )
                rows.append(scalars)
                keys.append((arg_id, kp_id))
    if not rows:
        return keys, np.zeros((0, 0), dtype=np.float32)
    return keys, np.vstack(rows).astype(np.float32)


class MatchModel:
    """A standardiser and an MLP (ReLU hidden layers, logistic output), weights in numpy."""

    def __init__(
        self,
        mean: NDArray[np.float32],
        scale: NDArray[np.float32],
        weights: list[NDArray[np.float32]],
        biases: list[NDArray[np.float32]],
    ) -> None:
        self.mean, self.scale, self.weights, self.biases = mean, scale, weights, biases

    @classmethod
    def load(cls, path: str | Path = MODEL_FILE) -> MatchModel:
        import numpy as np

        from argkb.errors import ConfigError

        try:
            with np.load(path, allow_pickle=False) as data:
                layers = int(data["layers"])
                return cls(
                    data["mean"],
                    data["scale"],
                    [data[f"w{i}"] for i in range(layers)],
                    [data[f"b{i}"] for i in range(layers)],
                )
        except (OSError, KeyError, ValueError) as err:
            raise ConfigError(f"{path}: not a key point matching model ({err})") from err

    def save(self, path: str | Path) -> None:
        import numpy as np

        arrays = {"mean": self.mean, "scale": self.scale, "layers": np.array(len(self.weights))}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"] = w.astype(np.float32)
            arrays[f"b{i}"] = b.astype(np.float32)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    def predict(self, features: NDArray[np.float32]) -> NDArray[np.float64]:
        import numpy as np

        h = (features - self.mean) / self.scale
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0)
        return 1 / (1 + np.exp(-h.ravel().astype(np.float64)))


def model_scores(
    task: Task, vectors: Mapping[str, NDArray[np.float32]], model: MatchModel | None = None
) -> Scores:
    model = model or MatchModel.load()
    keys, features = pair_features(task, vectors)
    out: Scores = {arg_id: {} for group in task.groups for arg_id, _ in group.arguments}
    if keys:
        for (arg_id, kp_id), p in zip(keys, model.predict(features), strict=True):
            out[arg_id][kp_id] = float(p)
    return out
