"""Stance alignment P(q aligned c): does a retrieved claim take the query's side?

A claim that negates the query lends its pro premises to the query's con side. The estimator is
pluggable (:class:`StanceAlignment`); :func:`choose_alignment` maps the ``alignment`` setting
(:class:`argkb.query.settings.QuerySettings`) to one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from argkb.query.settings import AlignmentChoice

if TYPE_CHECKING:
    from argkb.embed.model import Embedder
    from argkb.stance.cross import CrossStanceModel


class StanceAlignment(Protocol):
    """P(q aligned c): the probability that query and claim take the same stance.

    ``contrast``: where the engine has it, the MiniLM contrast ``cos(q, c) - cos(q, not c)`` of
    each claim (None where not), computed on the server from the vectors ``argkb embed`` stored;
    an estimator may use or ignore it.
    """

    def __call__(
        self, query: str, claims: list[str], contrast: Sequence[float | None] | None = None
    ) -> list[float]: ...


def always_aligned(
    query: str, claims: list[str], contrast: Sequence[float | None] | None = None
) -> list[float]:
    """Dumani et al.'s experimental choice: every retrieved claim shares the query's stance."""
    return [1.0] * len(claims)


def choose_alignment(choice: AlignmentChoice, embedder: Embedder) -> StanceAlignment:
    """The estimator behind the ``alignment`` setting: ``model`` (the default: the estimator's
    decisions), ``soft`` (its probabilities), ``cross`` (the stance cross-encoder's decisions)
    or ``always`` (every claim aligned, Dumani et al.)."""
    if choice == "always":
        return always_aligned
    if choice == "cross":
        return CrossAlignment()
    return model_alignment(embedder, hard=choice == "model")


class CrossAlignment:
    """P(q aligned c) from ``argkb stance``'s cross-encoder (:mod:`argkb.stance.cross`): the
    claim is read as a premise of the query, and a claim that it judges pro (P >= .5) is aligned
    (1), else opposed (0). The model loads on first use.

    It reads what the word-list estimator cannot: "Social media is bad for society" takes the
    side of "Social media does more harm than good", and "Social media helps people stay
    connected" the other (docs/results/stance.md has its scores on the alignment pairs)."""

    def __init__(self) -> None:
        self._model: CrossStanceModel | None = None

    def __call__(
        self, query: str, claims: list[str], contrast: Sequence[float | None] | None = None
    ) -> list[float]:
        if not claims:
            return []
        if self._model is None:
            from argkb.stance.cross import CrossStanceModel

            self._model = CrossStanceModel.load()
        p = self._model.probability([query] * len(claims), claims)
        return [1.0 if x >= 0.5 else 0.0 for x in p]


def model_alignment(embedder: Embedder, *, hard: bool = True) -> StanceAlignment:
    """The stance-alignment estimator of :mod:`argkb.stance.alignment` (negation and antonym
    flips, contrast in embedding space), sharing the engine's embedder.

    ``hard`` (the default of ``argkb query``): a claim counts as aligned (1) or opposed (0);
    else the estimator's probability weighs its premises' sides."""
    from argkb.stance.alignment import StanceAligner

    return StanceAligner(embedder, hard=hard)
