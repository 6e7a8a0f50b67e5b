"""Stance on held-out topics: accuracy and macro-F1 against the majority class.

Every evaluation is topic-disjoint: no topic (ArgKP, ArgQuality) or argument map (AIF) of a test
fold is seen in training.

* ArgKP: train on ArgKP *train* plus the other datasets, test on ArgKP *dev* (4 topics, disjoint
  from train by construction of the dataset);
* Webis-ArgQuality-20: leave-topics-out, ``folds`` folds of its 20 topics (topic ``i`` in fold
  ``i mod folds`` by sorted topic id), trained on the other folds plus ArgKP train and AIF;
* AIF maps: leave-maps-out folds the same way, trained on the other maps plus ArgKP train and
  ArgQuality;
* SIGIR-19 dev: leave-issues-out folds the same way (each issue's biased and neutral topic
  together).

Each row carries a 95 % interval of its accuracy, from a bootstrap over its topics (topics
resampled with replacement, 2,000 draws, seeded; the pooled accuracy of each draw), and the
accuracy of each topic.

The model is refitted per fold (a logistic regression fits in seconds); the majority class is
the test fold's own majority, the best any constant answer can do there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from argkb.stance.data import StancePair

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

    from argkb.embed.model import Embedder


@dataclass(frozen=True)
class StanceScores:
    """Scores of one held-out evaluation."""

    dataset: str
    split: str
    pairs: int
    topics: int
    pro_share: float
    majority: float  # accuracy of the test set's majority class
    accuracy: float
    macro_f1: float
    majority_macro_f1: float
    interval: tuple[float, float] | None = None  # 95 %, bootstrap over topics
    per_topic: dict[str, tuple[int, float]] = field(default_factory=dict)  # pairs, accuracy


BOOTSTRAP_DRAWS = 2000


def scores_of(
    dataset: str,
    split: str,
    groups: Sequence[str],
    truth: ArrayLike,
    predicted: ArrayLike,
    *,
    draws: int = BOOTSTRAP_DRAWS,
) -> StanceScores:
    """A row of scores for predictions ``predicted`` (bool) of pairs with labels ``truth`` and
    topics ``groups``: accuracy, macro-F1, the majority class's, the topic-bootstrap interval
    and per-topic accuracy."""
    import numpy as np

    y = np.asarray(truth, dtype=bool)
    p = np.asarray(predicted, dtype=bool)
    pro_share = float(np.mean(y)) if len(y) else 0.0
    accuracy, macro_f1 = classification_scores(y, p)
    majority, majority_f1 = classification_scores(y, np.full(len(y), pro_share >= 0.5))
    names, index = np.unique(np.asarray(groups, dtype=object).astype(str), return_inverse=True)
    correct = np.bincount(index, weights=(p == y).astype(float), minlength=len(names))
    counts = np.bincount(index, minlength=len(names)).astype(float)
    interval = None
    if len(names) > 1:
        picks = np.random.default_rng(0).integers(0, len(names), (draws, len(names)))
        ratios = correct[picks].sum(axis=1) / counts[picks].sum(axis=1)
        low, high = np.percentile(ratios, [2.5, 97.5])
        interval = (float(low), float(high))
    per_topic = {str(name): (int(n), float(c / n))
                 for name, n, c in zip(names, counts, correct, strict=True)}  # fmt: skip
    return StanceScores(dataset, split, len(y), len(names), pro_share, majority, accuracy,
                        macro_f1, majority_f1, interval, per_topic)  # fmt: skip


def classification_scores(truth: ArrayLike, predicted: ArrayLike) -> tuple[float, float]:
    """Accuracy and macro-F1 (mean of the pro and con F1) of boolean predictions.

    A class that is neither predicted nor present has F1 0 in the mean (as in scikit-learn's
    ``zero_division=0``).
    """
    import numpy as np

    y = np.asarray(truth, dtype=bool)
    p = np.asarray(predicted, dtype=bool)
    if len(y) == 0:
        return 0.0, 0.0
    f1s = []
    for cls in (True, False):
        tp = float(np.sum((p == cls) & (y == cls)))
        fp = float(np.sum((p == cls) & (y != cls)))
        fn = float(np.sum((p != cls) & (y == cls)))
        f1s.append(2 * tp / (2 * tp + fp + fn) if tp > 0 else 0.0)
    return float(np.mean(p == y)), float(np.mean(f1s))


def pair_matrix(
    embedder: Embedder, pairs: Sequence[StancePair], blocks: Sequence[str]
) -> NDArray[np.float64]:
    """Feature matrix of ``pairs`` (each distinct text embedded once)."""
    import numpy as np

    from argkb.stance.features import cue_counts, negate, orientation, pair_features
    from argkb.stance.model import embed_unique

    premises = [p.premise for p in pairs]
    conclusions = [p.conclusion for p in pairs]
    negated = {c: negate(c) for c in dict.fromkeys(conclusions)}
    vectors = embed_unique(embedder, [*premises, *conclusions, *(negated[c] for c in conclusions)])
    n = len(pairs)
    lexical = np.asarray([cue_counts(p, c) for p, c in zip(premises, conclusions, strict=True)])
    orient = np.asarray([orientation(c) for c in conclusions], dtype=np.float64)
    return pair_features(vectors[:n], vectors[n : 2 * n], vectors[2 * n :], lexical, blocks, orient)


def topic_order(group: str) -> tuple[int, str]:
    """The sort key of topic groups: numeric ids (SIGIR-19 issues, ArgQuality topics) in
    numeric order, names alphabetically."""
    return (int(group), "") if group.isdigit() else (0, group)


def topic_folds(pairs: Sequence[StancePair], folds: int) -> list[list[int]]:
    """Indices of ``pairs`` per fold; group ``i`` (sorted) goes to fold ``i mod folds``."""
    groups = sorted({p.group for p in pairs}, key=topic_order)
    fold_of = {g: i % folds for i, g in enumerate(groups)}
    out: list[list[int]] = [[] for _ in range(folds)]
    for index, pair in enumerate(pairs):
        out[fold_of[pair.group]].append(index)
    return [f for f in out if f]


Scorer = Callable[["NDArray[np.float64]"], "NDArray[np.float64]"]
Fitter = Callable[["NDArray[np.float64]", "NDArray[np.bool_]"], Scorer]


def held_out(
    pairs: Sequence[StancePair],
    features: NDArray[np.float64],
    fit: Fitter,
    *,
    folds: int = 5,
    train_on: Sequence[str] | None = None,
    validation: bool = False,
) -> list[StanceScores]:
    """Topic-disjoint scores per dataset (see the module docstring).

    ``fit(x, y)`` returns a function from a feature matrix to P(pro); ``features`` is aligned
    with ``pairs``. Returns one row per dataset present (ArgKP only when it has a dev split).
    ``train_on`` limits the training pairs to those datasets. ``validation`` instead scores
    leave-topics-out folds of ArgKP *train* only (6 folds of 4 topics), for choosing features
    without looking at the test sets.
    """
    import numpy as np

    labels = np.asarray([p.pro for p in pairs], dtype=bool)
    datasets = [p.dataset for p in pairs]
    everything = np.arange(len(pairs))
    rows: list[StanceScores] = []
    tests: list[tuple[str, str, list[NDArray[np.int64]]]] = []
    argkp_dev = [i for i, p in enumerate(pairs) if p.dataset == "argkp" and p.split == "dev"]
    if validation:
        members = [i for i, p in enumerate(pairs) if p.dataset == "argkp" and p.split == "train"]
        parts = topic_folds([pairs[i] for i in members], 6)
        chosen = [np.asarray([members[j] for j in part]) for part in parts]
        tests.append(("argkp", "train, leave-topics-out, 6 folds", chosen))
        argkp_dev = []
    elif argkp_dev:
        tests.append(("argkp", "dev (4 topics), trained on train", [np.asarray(argkp_dev)]))
    units = {"argquality": "topics", "aif": "maps", "sigir19": "issues"}
    for name in () if validation else units:
        members = [i for i, d in enumerate(datasets) if d == name]
        if members:
            parts = topic_folds([pairs[i] for i in members], folds)
            chosen = [np.asarray([members[j] for j in part]) for part in parts]
            tests.append((name, f"leave-{units[name]}-out, {len(chosen)} folds", chosen))
    for name, split, test_folds in tests:
        predicted = np.zeros(len(pairs), dtype=bool)
        tested = np.zeros(len(pairs), dtype=bool)
        for test in test_folds:
            train = _training(pairs, everything, test, train_on)
            if len(set(labels[train].tolist())) < 2:
                from argkb.errors import ArgKBError

                raise ArgKBError(
                    f"no pro and con pairs to train on for {name} ({split}): give ArgKP-2021 "
                    "(with its train split) or Webis-ArgQuality-20 as well (--argkp, "
                    "--argquality, or --data holding them); the other datasets are only scored"
                )
            scorer = fit(features[train], labels[train])
            predicted[test] = scorer(features[test]) >= 0.5
            tested[test] = True
        groups = [pairs[int(i)].group for i in np.flatnonzero(tested)]
        rows.append(scores_of(name, split, groups, labels[tested], predicted[tested]))
    return rows


def _training(
    pairs: Sequence[StancePair],
    everything: NDArray[np.int64],
    test: NDArray[np.int64],
    train_on: Sequence[str] | None,
) -> NDArray[np.int64]:
    """Every pair outside the test fold's groups, never ArgKP dev (it is only ever a test set),
    and none whose premise text a test pair has (:func:`argkb.stance.data.without_texts_of`)."""
    import numpy as np

    from argkb.stance.data import text_key

    groups = {(pairs[i].dataset, pairs[i].group) for i in test}
    texts = {text_key(pairs[i].premise) for i in test}
    keep = [
        i
        for i in everything
        if (pairs[i].dataset, pairs[i].group) not in groups
        and not (pairs[i].dataset == "argkp" and pairs[i].split == "dev")
        and (train_on is None or pairs[i].dataset in train_on)
        and text_key(pairs[i].premise) not in texts
    ]
    return np.asarray(keep, dtype=np.int64)


def logistic_fitter(l2: float) -> Fitter:
    """A :data:`Fitter` for :class:`argkb.stance.model.StanceModel` with strength ``l2``."""
    from argkb.stance.model import StanceModel

    def fit(x: NDArray[np.float64], y: NDArray[np.bool_]) -> Scorer:
        return StanceModel.fit(x, y, [], l2=l2).probability

    return fit
