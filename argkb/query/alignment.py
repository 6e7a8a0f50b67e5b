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
    decisions), ``soft`` (its probabilities) or ``always`` (every claim aligned, Dumani et al.)."""
    if choice == "always":
        return always_aligned
    return model_alignment(embedder, hard=choice == "model")


def model_alignment(embedder: Embedder, *, hard: bool = True) -> StanceAlignment:
    """The stance-alignment estimator of :mod:`argkb.stance.alignment` (negation and antonym
    flips, contrast in embedding space), sharing the engine's embedder.

    ``hard`` (the default of ``argkb query``): a claim counts as aligned (1) or opposed (0);
    else the estimator's probability weighs its premises' sides."""
    from argkb.stance.alignment import StanceAligner

    return StanceAligner(embedder, hard=hard)
