"""Track 1 of the ArgMining 2021 key point analysis shared task (Friedman et al., 2021).

The task's definition, as its evaluation scores a submission:

1. A submission gives scores to (argument, key point) pairs. For each argument only its
   top-scoring key point counts (one pair per argument); candidate key points are those of the
   argument's own topic and stance. An argument without any scored key point gets a placeholder
   pair that never matches (score 0).
2. The pairs of each (topic, stance) are ranked by score and only the top half
   (``int(n * 0.5)`` pairs) is kept. A placeholder pair that lands in the kept half is ranked as
   if it scored 0.99, so leaving arguments out cannot raise precision.
3. Average precision is computed over the kept pairs (the step-wise sum over distinct score
   thresholds of precision times the recall gained, as scikit-learn's
   ``average_precision_score``; a group without a positive scores 0), and averaged over the
   (topic, stance) groups: the mAP.
4. A pair's label comes from the labels file. Pairs the file lacks are *undecided* (the
   annotators reached no majority, so the pair was left out of the released labels): **strict**
   counts them as non-matches, **relaxed** as matches.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from argkb.loaders.argkp import ArgKPSplit

TOP_SHARE = 0.5
PLACEHOLDER_SCORE = 0.99

# arg_id -> kp_id -> score
Scores = Mapping[str, Mapping[str, float]]


def average_precision(labels: Sequence[int], scores: Sequence[float]) -> float:
    """Average precision of a ranking by ``scores`` (higher first); tied scores form one step.

    ``sum_t (R_t - R_{t-1}) * P_t`` over the distinct scores t in descending order, P_t and R_t
    being precision and recall of the items scoring at least t. No positive label: 0.
    """
    if len(labels) != len(scores):
        raise ValueError("labels and scores differ in length")
    positives = sum(1 for label in labels if label)
    if positives == 0:
        return 0.0
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    total = 0.0
    true_pos = seen = 0
    last_recall = 0.0
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and scores[order[j]] == scores[order[i]]:
            true_pos += 1 if labels[order[j]] else 0
            seen += 1
            j += 1
        recall = true_pos / positives
        total += (recall - last_recall) * (true_pos / seen)
        last_recall = recall
        i = j
    return total


@dataclass(frozen=True, slots=True)
class Pick:
    """One argument's top-scoring key point and that pair's gold label (None: undecided)."""

    arg_id: str
    kp_id: str | None  # None: no key point scored (placeholder pair)
    score: float
    label: int | None


@dataclass(frozen=True)
class GroupResult:
    topic: str
    stance: str
    arguments: int
    kept: int
    ap_strict: float
    ap_relaxed: float
    undecided_kept: int


@dataclass(frozen=True)
class Track1Result:
    map_strict: float
    map_relaxed: float
    groups: tuple[GroupResult, ...]
    picks: tuple[Pick, ...] = field(repr=False, default=())

    @property
    def undecided(self) -> int:
        """Kept pairs without a gold label (they alone make strict and relaxed differ)."""
        return sum(group.undecided_kept for group in self.groups)


def pick_best(
    arg_ids: Sequence[str],
    kp_ids: Sequence[str],
    scores: Scores,
    labels: Mapping[tuple[str, str], int],
) -> list[Pick]:
    """Each argument's top-scoring key point among ``kp_ids`` (first one on ties)."""
    allowed = set(kp_ids)
    picks = []
    for arg_id in arg_ids:
        best: tuple[str, float] | None = None
        for kp_id, score in scores.get(arg_id, {}).items():
            if kp_id in allowed and (best is None or score > best[1]):
                best = (kp_id, float(score))
        if best is None:
            picks.append(Pick(arg_id, None, 0.0, 0))
        else:
            picks.append(Pick(arg_id, best[0], best[1], labels.get((arg_id, best[0]))))
    return picks


def group_ap(picks: Sequence[Pick]) -> tuple[float, float, int, int]:
    """(AP strict, AP relaxed, pairs kept, undecided among them) of one (topic, stance)."""
    ranked = sorted(picks, key=lambda pick: -pick.score)  # stable: file order on ties
    kept = ranked[: int(len(ranked) * TOP_SHARE)]
    scores = [PLACEHOLDER_SCORE if pick.kp_id is None else pick.score for pick in kept]
    strict = [0 if pick.label is None else pick.label for pick in kept]
    relaxed = [1 if pick.label is None else pick.label for pick in kept]
    undecided = sum(1 for pick in kept if pick.label is None)
    return (
        average_precision(strict, scores),
        average_precision(relaxed, scores),
        len(kept),
        undecided,
    )


def track1(
    arguments: Mapping[tuple[str, str], Sequence[str]],
    key_points: Mapping[tuple[str, str], Sequence[str]],
    labels: Mapping[tuple[str, str], int],
    scores: Scores,
) -> Track1Result:
    """mAP strict and relaxed of ``scores`` over the (topic, stance) groups of ``arguments``.

    ``arguments`` and ``key_points`` map (topic, stance) to ids; ``labels`` maps
    (arg_id, kp_id) to 0/1 and lacks the undecided pairs.
    """
    groups: list[GroupResult] = []
    all_picks: list[Pick] = []
    for (topic, stance), arg_ids in arguments.items():
        picks = pick_best(arg_ids, key_points.get((topic, stance), ()), scores, labels)
        ap_strict, ap_relaxed, kept, undecided = group_ap(picks)
        groups.append(
            GroupResult(topic, stance, len(arg_ids), kept, ap_strict, ap_relaxed, undecided)
        )
        all_picks.extend(picks)
    if not groups:
        return Track1Result(0.0, 0.0, ())
    return Track1Result(
        map_strict=sum(g.ap_strict for g in groups) / len(groups),
        map_relaxed=sum(g.ap_relaxed for g in groups) / len(groups),
        groups=tuple(groups),
        picks=tuple(all_picks),
    )


Ids = dict[tuple[str, str], list[str]]


def split_ids(split: ArgKPSplit) -> tuple[Ids, Ids, dict[tuple[str, str], int]]:
    """(arguments, key points, labels) of an ArgKP split as ids, for :func:`track1`."""
    arguments: Ids = {key: [a.arg_id for a in items] for key, items in split.arguments.items()}
    key_points: Ids = {key: [k.kp_id for k in items] for key, items in split.key_points.items()}
    labels = {(m.arg_id, m.kp_id): m.label for m in split.matches}
    return arguments, key_points, labels


def load_split(data: str, split: str) -> ArgKPSplit:
    """An ArgKP split with its three files, every row usable; else one :class:`LoadError`."""
    from argkb.errors import LoadError
    from argkb.eval.argkp import split_files
    from argkb.loaders import argkp

    split_files(data, split)  # all three files, or LoadError naming the missing ones
    loaded = argkp.load_split(data, split)
    if loaded.rejected:
        raise LoadError.at_first(loaded.rejected)
    if not any(loaded.arguments.values()):
        raise LoadError(f"{data}: arguments_{split}.csv", "rows", "no argument to score")
    return loaded


def load_predictions(path: str) -> dict[str, dict[str, float]]:
    """A shared-task submission: JSON ``{arg_id: {kp_id: score}}``."""
    import json

    from argkb.errors import LoadError

    try:
        with open(path, encoding="utf-8") as handle:
            raw = json.load(handle)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise LoadError(path, "<file>", f"not a JSON predictions file ({err})") from err
    if not isinstance(raw, dict):
        raise LoadError(path, "<file>", "expected an object {arg_id: {kp_id: score}}")
    out: dict[str, dict[str, float]] = {}
    for arg_id, kps in raw.items():
        if not isinstance(kps, dict):
            raise LoadError(f"{path}: {arg_id}", "key points", "expected {kp_id: score}")
        row: dict[str, float] = {}
        for kp_id, score in kps.items():
            if isinstance(score, bool) or not isinstance(score, int | float):
                raise LoadError(f"{path}: {arg_id}", kp_id, f"score {score!r} is not a number")
            if not math.isfinite(score):
                raise LoadError(f"{path}: {arg_id}", kp_id, f"score {score!r} is not finite")
            row[kp_id] = float(score)
        out[arg_id] = row
    return out
