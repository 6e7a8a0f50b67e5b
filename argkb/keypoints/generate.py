"""Generate key points for the arguments of one topic and stance, with their prevalence.

1. **Candidates**: the sentences of the arguments (:func:`argkb.embed.model.rough_sentences`) that
   read as a key point: 4 to 20 words (ArgKP's key points have 3 to 17), not a question, and
   self-contained, i.e. not opening with a word that points back to a context (``it``, ``this``,
   ``they``, ``also``, ``but``, ...). Duplicates (same words) count once.
2. **Selection** (greedy facility location, as in extractive summarisation): with
   all-MiniLM-L6-v2 cosines, each step takes the candidate that most raises the sum over the
   arguments of their cosine to the closest chosen key point (divided by
   ``1 + LENGTH_PENALTY * words``; 0: no length penalty), skipping candidates closer than
   :data:`REDUNDANT_COSINE` (.8) to one already taken and those closer than
   :data:`TOPIC_COSINE` (.7) to the topic (restatements of the motion). These three were chosen
   on ArgKP **train** (gold key point coverage at k = gold; penalties 0, .03, .08, redundancy .7
   and .8, topic filter .7 or none all gave .50 to .55; the chosen one .55).
3. **Prevalence**: the chosen key points are the candidates of the matching model
   (:mod:`argkb.keypoints.model`); each argument counts for its top-scoring key point when the
   model's probability is at least 0.5. Key points are listed by prevalence; one that no
   argument matches summarises nothing and is left out, so ``k`` is an upper bound.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from argkb.keypoints.match import Group, Task, tokens

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from argkb.keypoints.model import MatchModel

LENGTH_PENALTY = 0.0
TOPIC_COSINE = 0.7
REDUNDANT_COSINE = 0.8
MATCH_PROBABILITY = 0.5
MIN_WORDS, MAX_WORDS = 4, 20
_DANGLING = frozenset(
    [
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "they",
        "them",
        "their",
        "he",
        "she",
        "his",
        "her",
        "such",
        "also",
        "but",
        "and",
        "so",
        "or",
        "because",
        "which",
        "then",
        "there",
        "here",
        "thus",
        "hence",
        "therefore",
        "however",
        "moreover",
        "furthermore",
        "additionally",
        "plus",
        "yes",
        "no",
    ]
)
_FIRST_WORD = re.compile(r"[A-Za-z']+")


@dataclass
class KeyPointOut:
    """A generated key point: its text, the argument it was taken from, the arguments matched."""

    text: str
    source: str  # arg id of the argument the sentence comes from
    matched: list[str] = field(default_factory=list)

    @property
    def prevalence(self) -> int:
        return len(self.matched)


def candidates(arguments: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """``(text, source arg id)`` of the sentences fit to be key points, first occurrence kept."""
    from argkb.embed.model import rough_sentences

    out: list[tuple[str, str]] = []
    seen: set[tuple[str, ...]] = set()
    for arg_id, text in arguments:
        for sentence in rough_sentences(text.strip()):
            sentence = sentence.strip()
            words = sentence.split()
            if not MIN_WORDS <= len(words) <= MAX_WORDS or sentence.endswith("?"):
                continue
            first = _FIRST_WORD.match(words[0])
            if first is None or first.group(0).lower() in _DANGLING:
                continue
            key = tuple(tokens(sentence))
            if not key or key in seen:
                continue
            seen.add(key)
            out.append((sentence, arg_id))
    return out


def select(
    arguments: Sequence[tuple[str, str]],
    vectors: Mapping[str, NDArray[np.float32]],
    k: int,
    topic: str | None = None,
) -> list[tuple[str, str]]:
    """Up to ``k`` candidates ``(text, source arg id)`` chosen by greedy coverage (see above)."""
    import numpy as np

    pool = candidates(arguments)
    if not pool or not arguments or k <= 0:
        return []
    arg_vecs = np.vstack([vectors[text] for _, text in arguments])
    cand_vecs = np.vstack([vectors[text] for text, _ in pool])
    sim = cand_vecs @ arg_vecs.T  # candidate x argument
    lengths = np.array([len(text.split()) for text, _ in pool], dtype=np.float64)
    best = np.zeros(len(arguments))  # each argument's cosine to its closest chosen key point
    usable = np.ones(len(pool), dtype=bool)
    if topic is not None:  # a restatement of the motion says nothing about why
        usable &= cand_vecs @ vectors[topic] < TOPIC_COSINE
    chosen: list[int] = []
    while len(chosen) < k and usable.any():
        gain = np.maximum(sim - best, 0).sum(axis=1) / (1 + LENGTH_PENALTY * lengths)
        gain[~usable] = -1
        pick = int(np.argmax(gain))
        chosen.append(pick)
        best = np.maximum(best, sim[pick])
        usable &= (cand_vecs @ cand_vecs[pick]) < REDUNDANT_COSINE
        usable[pick] = False
    return [pool[i] for i in chosen]


def embed_for(texts: Sequence[str], embedder: object) -> dict[str, NDArray[np.float32]]:
    unique = list(dict.fromkeys(texts))
    vectors = embedder.embed(unique)  # type: ignore[attr-defined]
    return dict(zip(unique, vectors, strict=True))


def key_points(
    topic: str,
    stance: str,
    arguments: Sequence[tuple[str, str]],
    embedder: object,
    k: int,
    model: MatchModel | None = None,
) -> list[KeyPointOut]:
    """The key points of one (topic, stance), most prevalent first."""
    from argkb.keypoints.model import MatchModel, model_scores

    pool = candidates(arguments)
    vectors = embed_for(
        [topic, *(text for _, text in arguments), *(text for text, _ in pool)], embedder
    )
    chosen = select(arguments, vectors, k, topic)
    if not chosen:
        return []
    ids = [f"generated_{i}" for i in range(len(chosen))]
    task = Task(
        (
            Group(
                topic,
                stance,
                tuple(arguments),
                tuple(zip(ids, (t for t, _ in chosen), strict=True)),
            ),
        )
    )
    scores = model_scores(task, vectors, model or MatchModel.load())
    out = {
        kp_id: KeyPointOut(text, source) for kp_id, (text, source) in zip(ids, chosen, strict=True)
    }
    for arg_id, row in scores.items():
        if row:
            kp_id, p = max(row.items(), key=lambda item: item[1])
            if p >= MATCH_PROBABILITY:
                out[kp_id].matched.append(arg_id)
    return sorted((kp for kp in out.values() if kp.prevalence), key=lambda kp: -kp.prevalence)


@dataclass(frozen=True)
class CoverageRow:
    """Coverage of the gold key points by the first ``k = factor * gold`` generated ones."""

    factor: float
    key_points: int  # generated, all groups
    gold: int
    covered_label: int  # gold key points whose label with a generated one's source argument is 1
    covered_model: int  # gold key points that the model matches a generated one to (as argument)

    @property
    def share_label(self) -> float:
        return self.covered_label / self.gold if self.gold else 0.0

    @property
    def share_model(self) -> float:
        return self.covered_model / self.gold if self.gold else 0.0


FACTORS = (0.5, 1.0, 1.5, 2.0)


def coverage(
    task: Task,
    labels: Mapping[tuple[str, str], int],
    embedder: object,
    factors: Sequence[float] = FACTORS,
    model: MatchModel | None = None,
) -> tuple[list[CoverageRow], float]:
    """Gold key point coverage per ``k = factor * (gold key points of the group)``, and the share
    of arguments that the model matches to one of the generated key points at factor 1."""
    import math

    from argkb.keypoints.model import MatchModel, model_scores

    model = model or MatchModel.load()
    counts = {f: [0, 0, 0, 0] for f in factors}  # generated, gold, by label, by model
    matched_args = total_args = 0
    for group in task.groups:
        gold = [kp_id for kp_id, _ in group.key_points]
        if not gold:
            continue
        k_max = max(1, math.ceil(max(factors) * len(gold)))
        pool = candidates(group.arguments)
        vectors = embed_for(
            [group.topic, *(t for _, t in group.arguments), *(t for t, _ in pool),
             *(t for _, t in group.key_points)],
            embedder,
        )  # fmt: skip
        chosen = select(group.arguments, vectors, k_max, group.topic)
        # the model's reading of each generated key point as an argument against the gold ones
        as_args = tuple((f"generated_{i}", text) for i, (text, _) in enumerate(chosen))
        probe = Task((Group(group.topic, group.stance, as_args, group.key_points),))
        probs = model_scores(probe, vectors, model)
        for factor in factors:
            k = max(1, math.ceil(factor * len(gold)))
            first = chosen[:k]
            by_label = {g for g in gold for _, src in first if labels.get((src, g)) == 1}
            by_model: set[str] = set()
            for i in range(len(first)):
                row = probs.get(f"generated_{i}", {})
                if row:
                    kp_id, p = max(row.items(), key=lambda item: item[1])
                    if p >= MATCH_PROBABILITY:
                        by_model.add(kp_id)
            c = counts[factor]
            c[0] += len(first)
            c[1] += len(gold)
            c[2] += len(by_label)
            c[3] += len(by_model)
        kps = key_points(group.topic, group.stance, group.arguments, embedder, len(gold), model)
        matched_args += sum(kp.prevalence for kp in kps)
        total_args += len(group.arguments)
    rows = [CoverageRow(f, *counts[f]) for f in factors]
    return rows, (matched_args / total_args if total_args else 0.0)
