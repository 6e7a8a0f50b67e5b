"""Matchers: scores for (argument, key point) pairs of one topic and stance.

Each matcher takes a :class:`Task` (per topic and stance: the arguments and the candidate key
points, as ``(id, text)``) and returns ``arg_id -> kp_id -> score``, the input of
:func:`argkb.keypoints.evaluate.track1`.

* ``bm25``: Okapi BM25 of the argument (as the query) against each key point (as the document);
  document frequencies over all texts of the topic (both stances), k1 1.2, b 0.75.
* ``cosine``: cosine of all-MiniLM-L6-v2 sentence embeddings (:class:`argkb.embed.model.Embedder`).
* ``model``: the matching model trained on ArgKP train (:mod:`argkb.keypoints.model`).
* ``cross``: all-MiniLM-L6-v2 reading key point and argument together, with low-rank adapters
  trained on ArgKP train (``cross_match.safetensors``; the training and model code of
  :mod:`argkb.stance.cross`, with key point and argument in place of conclusion and premise).
* ``ensemble``: the mean of ``model`` and ``cross`` probabilities.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from argkb.embed.model import Embedder
    from argkb.loaders.argkp import ArgKPSplit

MATCHERS = ("bm25", "cosine", "model", "cross", "ensemble")
K1 = 1.2
B = 0.75

_WORD = re.compile(r"[a-z0-9]+")
_STOPWORDS = """
    a an the and or but if of to in on at by for with from as is are was were be been being it
    its this that these those there their they them we our us you your he she his her i me my
    not no do does did so than then too very can could should would will shall may might must
    have has had which who whom what when where why how all any some such more most other into
    about over also just only own same each both few
"""
STOPWORDS = frozenset(_STOPWORDS.split())

Scores = dict[str, dict[str, float]]


@dataclass(frozen=True)
class Group:
    """The arguments of one (topic, stance) and the key points they may match."""

    topic: str
    stance: str
    arguments: tuple[tuple[str, str], ...]  # (arg_id, text)
    key_points: tuple[tuple[str, str], ...]  # (kp_id, text)


@dataclass(frozen=True)
class Task:
    groups: tuple[Group, ...]

    @classmethod
    def from_split(cls, split: ArgKPSplit) -> Task:
        groups = []
        for (topic, stance), items in split.arguments.items():
            kps = split.key_points.get((topic, stance), ())
            groups.append(
                Group(
                    topic,
                    stance,
                    tuple((a.arg_id, a.text) for a in items),
                    tuple((k.kp_id, k.text) for k in kps),
                )
            )
        return cls(tuple(groups))

    def texts(self) -> list[str]:
        """Every distinct text (topics, arguments, key points), in first-seen order."""
        seen: dict[str, None] = {}
        for group in self.groups:
            seen.setdefault(group.topic)
            for _, text in (*group.arguments, *group.key_points):
                seen.setdefault(text)
        return list(seen)


def tokens(text: str) -> list[str]:
    """Lower-cased words without stop words, with a light plural/suffix strip."""
    out = []
    for word in _WORD.findall(text.lower()):
        if word in STOPWORDS:
            continue
        if len(word) > 4 and word.endswith("ies"):
            word = word[:-3] + "y"
        elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.append(word)
    return out


class BM25:
    """Okapi BM25 over a small corpus (the texts of one topic)."""

    def __init__(self, corpus: Iterable[Sequence[str]], k1: float = K1, b: float = B) -> None:
        docs = [set(doc) for doc in corpus]
        self.n = len(docs)
        self.df: Counter[str] = Counter(term for doc in docs for term in doc)
        self.k1, self.b = k1, b

    def idf(self, term: str) -> float:
        df = self.df.get(term, 0)
        return math.log(1 + (self.n - df + 0.5) / (df + 0.5))

    def score(self, query: Sequence[str], doc: Sequence[str], avg_len: float) -> float:
        tf = Counter(doc)
        norm = self.k1 * (1 - self.b + self.b * len(doc) / (avg_len or 1.0))
        return sum(
            self.idf(term) * tf[term] * (self.k1 + 1) / (tf[term] + norm)
            for term in dict.fromkeys(query)
            if term in tf
        )


def bm25_scores(task: Task) -> Scores:
    by_topic: dict[str, list[list[str]]] = {}
    for group in task.groups:
        corpus = by_topic.setdefault(group.topic, [])
        corpus.extend(tokens(text) for _, text in (*group.arguments, *group.key_points))
    models = {topic: BM25(corpus) for topic, corpus in by_topic.items()}
    out: Scores = {}
    for group in task.groups:
        bm25 = models[group.topic]
        kp_tokens = [(kp_id, tokens(text)) for kp_id, text in group.key_points]
        avg_len = sum(len(t) for _, t in kp_tokens) / max(len(kp_tokens), 1)
        for arg_id, text in group.arguments:
            query = tokens(text)
            out[arg_id] = {kp_id: bm25.score(query, doc, avg_len) for kp_id, doc in kp_tokens}
    return out


def embed_texts(task: Task, embedder: Embedder) -> dict[str, NDArray[np.float32]]:
    texts = task.texts()
    vectors = embedder.embed(texts)
    return dict(zip(texts, vectors, strict=True))


def cosine_scores(task: Task, vectors: Mapping[str, NDArray[np.float32]]) -> Scores:
    out: Scores = {}
    for group in task.groups:
        for arg_id, text in group.arguments:
            a = vectors[text]
            out[arg_id] = {kp_id: float(a @ vectors[kp]) for kp_id, kp in group.key_points}
    return out


class Matcher:
    """Scores of :data:`MATCHERS` for one task; the embeddings are computed once, on first use
    (default embedder: all-MiniLM-L6-v2, offline)."""

    def __init__(
        self, task: Task, embedder: Embedder | None = None, *, cross_model: str | None = None
    ) -> None:
        """``cross_model``: a folder with ``cross_match.safetensors`` and ``.json`` to answer
        ``cross`` (and ``ensemble``) with instead of the shipped model."""
        self.task = task
        self.cross_model = cross_model
        self._embedder = embedder
        self._vectors: dict[str, NDArray[np.float32]] | None = None
        self._done: dict[str, Scores] = {}

    def embedder(self) -> Embedder:
        if self._embedder is None:
            from argkb.embed.model import Embedder

            self._embedder = Embedder()
        return self._embedder

    def vectors(self) -> dict[str, NDArray[np.float32]]:
        if self._vectors is None:
            self._vectors = embed_texts(self.task, self.embedder())
        return self._vectors

    def scores(self, matcher: str) -> Scores:
        if matcher not in self._done:
            self._done[matcher] = self._scores(matcher)
        return self._done[matcher]

    def _scores(self, matcher: str) -> Scores:
        if matcher == "ensemble":
            model, cross = self.scores("model"), self.scores("cross")
            return {
                arg_id: {kp_id: (p + cross[arg_id][kp_id]) / 2 for kp_id, p in row.items()}
                for arg_id, row in model.items()
            }
        if matcher == "bm25":
            return bm25_scores(self.task)
        if matcher == "cosine":
            return cosine_scores(self.task, self.vectors())
        if matcher == "model":
            from argkb.keypoints.model import model_scores

            return model_scores(self.task, self.vectors())
        if matcher == "cross":
            return cross_scores(self.task, *cross_files(self.cross_model))
        from argkb.errors import EvaluationError

        raise EvaluationError(f"unknown matcher {matcher!r} (known: {', '.join(MATCHERS)})")


CROSS_WEIGHTS = Path(__file__).with_name("cross_match.safetensors")
CROSS_INFO = Path(__file__).with_name("cross_match.json")


def cross_files(folder: str | None = None) -> tuple[Path, Path]:
    """The cross-encoder's weights and configuration in ``folder`` (None: the shipped ones)."""
    if folder is None:
        return CROSS_WEIGHTS, CROSS_INFO
    return Path(folder) / CROSS_WEIGHTS.name, Path(folder) / CROSS_INFO.name


def cross_scores(task: Task, weights: Path = CROSS_WEIGHTS, info: Path = CROSS_INFO) -> Scores:
    """P(match) of every (argument, key point) pair from the cross-encoder (default: shipped)."""
    from argkb.stance.cross import CrossStanceModel

    model = CrossStanceModel.load(weights, info)
    pairs = [(a, k) for g in task.groups for a in g.arguments for k in g.key_points]
    probs = model.probability([k for _, (_, k) in pairs], [a for (_, a), _ in pairs])
    out: Scores = {arg_id: {} for g in task.groups for arg_id, _ in g.arguments}
    for ((arg_id, _), (kp_id, _)), p in zip(pairs, probs, strict=True):
        out[arg_id][kp_id] = float(p)
    return out
