"""Stance alignment P(q aligned c): does a retrieved claim take the query's side?

A claim that negates the query lends its pro premises to the query's con side. The estimator is
pluggable (:class:`StanceAlignment`); :func:`choose_alignment` maps the ``alignment`` setting
(:class:`argkb.query.settings.QuerySettings`) to one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from importlib.util import find_spec
from typing import TYPE_CHECKING, Protocol

from argkb.query.settings import AlignmentChoice

if TYPE_CHECKING:
    from argkb.embed.model import Embedder
    from argkb.stance.cross import CrossStanceModel


class StanceAlignment(Protocol):
    """P(q aligned c): the probability that query and claim take the same stance.

    The engine lists the claims most credited first (highest P(c|q)). ``contrast``: where the
    engine has it, the MiniLM contrast ``cos(q, c) - cos(q, not c)`` of each claim (None where
    not), computed on the server from the vectors ``argkb embed`` stored; an estimator may use
    or ignore it.
    """

    def __call__(
        self, query: str, claims: list[str], contrast: Sequence[float | None] | None = None
    ) -> list[float]: ...


def always_aligned(
    query: str, claims: list[str], contrast: Sequence[float | None] | None = None
) -> list[float]:
    """Dumani et al.'s experimental choice: every retrieved claim shares the query's stance."""
    return [1.0] * len(claims)


def choose_alignment(
    choice: AlignmentChoice, embedder: Embedder, cross_claims: int | None = None
) -> StanceAlignment:
    """The estimator behind the ``alignment`` setting: ``model`` (the default: the estimator's
    decisions), ``soft`` (its probabilities), ``cross`` (the stance cross-encoder's decisions
    about the first ``cross_claims`` claims, the model's about the rest; None: all) or
    ``always`` (every claim aligned, Dumani et al.)."""
    if choice == "always":
        return always_aligned
    if choice == "cross":
        rest = model_alignment(embedder) if cross_claims is not None else None
        return CrossAlignment(limit=cross_claims, rest=rest)
    return model_alignment(embedder, hard=choice == "model")


class CrossAlignment:
    """P(q aligned c) from ``argkb stance``'s cross-encoder (:mod:`argkb.stance.cross`): the
    claim is read as a premise of the query, and a claim that it judges pro (P >= .5) is aligned
    (1), else opposed (0). The model loads on first use.

    It reads what the word-list estimator cannot: "Social media is bad for society" takes the
    side of "Social media does more harm than good", and "Social media helps people stay
    connected" the other (docs/results/stance.md has its scores on the alignment pairs).

    ``limit``: only the first ``limit`` claims (the most credited) are asked, and ``rest``
    answers for the others. Each pair costs about 4 ms of a 2-core CPU, and a query at 100k
    arguments credits a median of 22 claims (docs/benchmarks.md). Decisions are kept per
    (query, claim text) for the last ``memory`` pairs, so that :meth:`warm` can make them while
    the engine still reads the graph, and a claim text two debates share is asked once.
    """

    def __init__(
        self, *, limit: int | None = None, rest: StanceAlignment | None = None,
        memory: int = 4096, backend: str | None = None,
    ) -> None:  # fmt: skip
        """``backend``: how the model runs (:meth:`CrossStanceModel.use_backend`); None: int8
        ONNX Runtime where it is installed (about a third faster than torch for a query's
        pairs; docs/results/stance.md), else torch."""
        if limit is not None and rest is None:
            raise ValueError("a limit needs an estimator for the rest")
        if backend is None:
            backend = "onnx-int8" if find_spec("onnxruntime") else "torch"
        self.backend = backend
        self._model: CrossStanceModel | None = None
        self.limit = limit
        self.rest = rest
        self.memory = memory
        self._known: OrderedDict[tuple[str, str], float] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(
        self, query: str, claims: list[str], contrast: Sequence[float | None] | None = None
    ) -> list[float]:
        asked = claims if self.limit is None else claims[: self.limit]
        decided = self.warm(query, asked)
        start = len(asked)
        tail = list(contrast[start:]) if contrast is not None else None
        rest = self.rest(query, claims[start:], tail) if self.rest and claims[start:] else []
        return [decided[claim] for claim in asked] + list(rest)

    def warm(self, query: str, claims: list[str]) -> dict[str, float]:
        """The decision for each of ``claims``, asking the model about those not kept yet."""
        with self._lock:
            known = {c: self._known[(query, c)] for c in claims if (query, c) in self._known}
        new = sorted(set(claims) - set(known))
        if new:
            p = self.model().probability([query] * len(new), new)
            decided = {c: 1.0 if x >= 0.5 else 0.0 for c, x in zip(new, p, strict=True)}
            known |= decided
            with self._lock:
                self._known.update(((query, c), v) for c, v in decided.items())
                while len(self._known) > self.memory:
                    self._known.popitem(last=False)
        return known

    def model(self) -> CrossStanceModel:
        """The cross-encoder, loaded on first use (once, whichever thread asks first)."""
        with self._lock:
            if self._model is None:
                from argkb.stance.cross import CrossStanceModel

                self._model = CrossStanceModel.load().use_backend(self.backend)
            return self._model


def model_alignment(embedder: Embedder, *, hard: bool = True) -> StanceAlignment:
    """The stance-alignment estimator of :mod:`argkb.stance.alignment` (negation and antonym
    flips, contrast in embedding space), sharing the engine's embedder.

    ``hard`` (the default of ``argkb query``): a claim counts as aligned (1) or opposed (0);
    else the estimator's probability weighs its premises' sides."""
    from argkb.stance.alignment import StanceAligner

    return StanceAligner(embedder, hard=hard)
