"""Stance alignment P(q aligned c): does a retrieved claim take the query's side?

A claim that negates the query lends its pro premises to the query's con side. The estimator is
pluggable (:class:`StanceAlignment`); :func:`choose_alignment` maps the ``alignment`` setting
(:class:`argkb.query.settings.QuerySettings`) to one.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from importlib.util import find_spec
from typing import TYPE_CHECKING, Protocol

from argkb.errors import ConfigError
from argkb.query.settings import AlignmentChoice

logger = logging.getLogger(__name__)

if TYPE_CHECKING:
    from argkb.embed.model import Embedder
    from argkb.stance.cross import CrossStanceModel
    from argkb.stance.cross_onnx import OnnxCross


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
    """The estimator behind the ``alignment`` setting: ``model`` (the default: the word-list
    estimator's decisions), ``soft`` (its probabilities), ``cross`` (the stance cross-encoder's
    decisions about the first ``cross_claims`` claims, None: all, except where query and claim
    differ in explicit negation; the word-list estimator's about the rest) or ``always`` (every
    claim aligned, Dumani et al.)."""
    if choice == "always":
        return always_aligned
    if choice == "cross":
        return CrossAlignment(limit=cross_claims, rest=model_alignment(embedder))
    return model_alignment(embedder, hard=choice == "model")


class CrossAlignment:
    """P(q aligned c) from ``argkb stance``'s cross-encoder (:mod:`argkb.stance.cross`): the
    claim is read as a premise of the query, and a claim that it judges pro (P >= .5) is aligned
    (1), else opposed (0). The model loads on first use.

    It reads what the word-list estimator cannot: "Social media is bad for society" takes the
    side of "Social media does more harm than good", and "Social media helps people stay
    connected" the other (docs/results/stance.md has its scores on the alignment pairs).

    ``rest`` (the word-list estimator, as :func:`choose_alignment` builds it) answers for the
    claims that differ from the query in explicit negation (an odd number of "not", "no",
    "never" ... between them): the cross-encoder calls a claim on the query's topic aligned too
    readily when the query is negated ("We should not abandon fossil fuels" and "Fossil fuels
    should be phased out": P = .50), and negation is what the word-list estimator reads.
    ``limit``: only the first ``limit`` claims (the most credited) go to the cross-encoder, and
    ``rest`` answers for the others. Each pair costs 2 to 4 ms of a 2-core CPU, and a query at
    100k arguments credits a median of 22 claims (docs/benchmarks.md). Decisions are kept per
    (query, claim text) for the ``memory`` pairs decided last, so that :meth:`warm` can make them
    while the engine still reads the graph, and a claim text two debates share is asked once
    (and answered alike wherever it is listed). A query longer than ``MAX_QUERY_WORDS`` words
    is left to ``rest`` (the pair would not fit the model's 256 word pieces).
    """

    MAX_QUERY_WORDS = 100

    def __init__(
        self, *, limit: int | None = None, rest: StanceAlignment | None = None,
        memory: int = 4096, backend: str | None = None,
    ) -> None:  # fmt: skip
        """``backend``: how the model runs (:meth:`CrossStanceModel.use_backend`); None: int8
        ONNX Runtime where onnxruntime and onnx are installed (a query's pairs took 87 ms at
        p50 against 104 ms with torch at 100k arguments; docs/results/query-latency.md), else
        torch. An ONNX backend that cannot load falls back to torch with a warning."""
        from argkb.stance.cross_onnx import BACKENDS

        if limit is not None and rest is None:
            raise ValueError("a limit needs an estimator for the rest")
        if backend is None:
            onnx = find_spec("onnxruntime") is not None and find_spec("onnx") is not None
            backend = "onnx-int8" if onnx else "torch"
        if backend not in BACKENDS:
            raise ValueError(f"unknown cross-encoder backend {backend!r} ({', '.join(BACKENDS)})")
        self.backend = backend
        self._model: CrossStanceModel | OnnxCross | None = None
        self.limit = limit
        self.rest = rest
        self.memory = memory
        self._known: OrderedDict[tuple[str, str], float] = OrderedDict()
        self._lock = threading.Lock()  # the kept decisions
        self._load_lock = threading.Lock()  # the first load (slow): lookups need not wait

    def __call__(
        self, query: str, claims: list[str], contrast: Sequence[float | None] | None = None
    ) -> list[float]:
        decided = self.warm(query, claims if self.limit is None else claims[: self.limit])
        out = [decided.get(claim, 0.0) for claim in claims]
        others = [i for i, claim in enumerate(claims) if claim not in decided]
        if others and self.rest is not None:
            given = [contrast[i] for i in others] if contrast is not None else None
            for i, value in zip(others, self.rest(query, [claims[i] for i in others], given),
                                strict=True):  # fmt: skip
                out[i] = value
        return out

    def decides(self, query: str, claim: str) -> bool:
        """Whether the cross-encoder decides for ``claim`` (else ``rest``): always without a
        ``rest``; else where query and claim agree in explicit negation and the query is not
        too long for the model."""
        from argkb.negation import negation_count

        if self.rest is None:
            return True
        short = len(query.split()) <= self.MAX_QUERY_WORDS
        return short and negation_count(query) % 2 == negation_count(claim) % 2

    def warm(self, query: str, claims: list[str]) -> dict[str, float]:
        """The decision for each of ``claims`` the cross-encoder decides for, asking the model
        about those not kept yet."""
        claims = [claim for claim in claims if self.decides(query, claim)]
        with self._lock:
            known = {c: self._known[(query, c)] for c in claims if (query, c) in self._known}
        new = sorted(set(claims) - set(known))
        if new:
            model = self.model()  # first: a backend that cannot load falls back to torch
            # int8 graphs quantise activations per batch, so a pair's answer would depend on
            # the pairs batched with it: there each pair runs on its own
            batch = 1 if self.backend == "onnx-int8" else 64
            p = model.probability([query] * len(new), new, batch_size=batch)
            decided = {c: 1.0 if x >= 0.5 else 0.0 for c, x in zip(new, p, strict=True)}
            known |= decided
            with self._lock:
                self._known.update(((query, c), v) for c, v in decided.items())
                while len(self._known) > self.memory:
                    self._known.popitem(last=False)
        return known

    def model(self) -> CrossStanceModel | OnnxCross:
        """The cross-encoder, loaded on first use (once, whichever thread asks first)."""
        with self._load_lock:
            if self._model is None:
                from argkb.stance.cross import CrossStanceModel
                from argkb.stance.cross_onnx import shipped

                if self.backend != "torch":
                    try:
                        self._model = shipped(self.backend)
                    except (ConfigError, ImportError) as err:
                        logger.warning("cross-encoder on %s unavailable (%s); using torch",
                                       self.backend, err)  # fmt: skip
                        self.backend = "torch"
                if self._model is None:  # the MiniLM one: the mpnet one is too slow here
                    from argkb.stance.cross import SHIPPED

                    self._model = CrossStanceModel.load(*SHIPPED["cross-minilm"])
            return self._model


def model_alignment(embedder: Embedder, *, hard: bool = True) -> StanceAlignment:
    """The stance-alignment estimator of :mod:`argkb.stance.alignment` (negation and antonym
    flips, contrast in embedding space), sharing the engine's embedder.

    ``hard`` (the default of ``argkb query``): a claim counts as aligned (1) or opposed (0);
    else the estimator's probability weighs its premises' sides."""
    from argkb.stance.alignment import StanceAligner

    return StanceAligner(embedder, hard=hard)
