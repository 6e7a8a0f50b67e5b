"""Stance alignment P(q aligned c) of a query and a retrieved claim (Eq. 2-4 of Dumani et al. 2020).

Dumani et al. (ECIR 2020, Eq. 2-4) weigh each retrieved claim's pro and con premises by the
probability that the claim takes the query's stance: for a claim that opposes the query, its pro
premises count for the con side. In their experiments they set it to 1. Retrieved claims are
mostly near-paraphrases or near-negations of the query ("We should not abandon fossil fuels"
retrieves "We should abandon fossil fuels"), so the estimator looks at what flips polarity
between two statements about the same thing:

* ``flip_same``: the polarity flip (+1 when the polarity differs, -1 when it is the same) times
  the word overlap of the two texts with negation cues removed (Jaccard of content words): a
  flip only means "opposed", and the same polarity only "aligned", when both texts say nearly
  the same thing. Polarity differs when the parities of negation cues
  (:data:`argkb.stance.features.NEGATIONS`) differ, or when one text has a word whose antonym
  (:data:`ANTONYMS`: abandon/keep, ban/allow, increase/decrease, ...) is in the other, an odd
  number of such flips counting once; a comparison's foil ("more harm than *good*") is not
  looked at for antonyms;
* ``contrast``: ``cos(q, c) - cos(q, not c)`` with ``not c`` from
  :func:`argkb.stance.features.negate`, in all-MiniLM-L6-v2 space.

``P = sigmoid(logit(prior) + w . x)``: the weights are fitted without an intercept on pairs
built from ArgKP *train* topics (``bench/train_stance.py``) and shipped as
``alignment_model.json``; with no evidence either way (a claim about something else) the
probability is the ``prior``, 0.5 by default: that claim's premises count half for each side.
A caller that wants Dumani et al.'s assumption for such claims passes a prior near 1.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argkb.errors import ConfigError
from argkb.stance.features import NEGATIONS, negate, tokens

if TYPE_CHECKING:
    from argkb.embed.model import Embedder

ALIGNMENT_FILE = Path(__file__).with_name("alignment_model.json")
ALIGNMENT_FEATURES = ("flip_same", "contrast")

_PAIRS = [
    ("abandon", "keep"), ("abandon", "maintain"), ("abandon", "retain"), ("abandon", "expand"),
    ("ban", "allow"), ("ban", "legalize"), ("ban", "legalise"), ("ban", "permit"),
    ("prohibit", "allow"), ("prohibit", "legalize"), ("forbid", "allow"), ("abolish", "keep"),
    ("abolish", "retain"), ("abolish", "maintain"), ("abolish", "introduce"),
    ("increase", "decrease"), ("increase", "reduce"), ("increase", "lower"), ("raise", "lower"),
    ("more", "less"), ("more", "fewer"), ("support", "oppose"), ("for", "against"),
    ("good", "bad"), ("beneficial", "harmful"), ("benefit", "harm"), ("right", "wrong"),
    ("legal", "illegal"), ("legalize", "illegal"), ("legalise", "illegal"), ("true", "false"),
    ("agree", "disagree"), ("pro", "con"),
    ("accept", "reject"), ("adopt", "reject"), ("adopt", "abandon"), ("subsidize", "tax"),
    ("subsidise", "tax"), ("mandatory", "voluntary"), ("compulsory", "voluntary"),
    ("strengthen", "weaken"), ("expand", "limit"), ("expand", "restrict"), ("safe", "dangerous"),
    ("positive", "negative"), ("worse", "better"),
    ("advantage", "disadvantage"), ("end", "continue"), ("stop", "continue"),
    ("start", "stop"), ("win", "lose"), ("rise", "fall"), ("encourage", "discourage"),
    ("help", "harm"), ("good", "harm"),
]  # fmt: skip
ANTONYMS: dict[str, frozenset[str]] = {}
for _a, _b in _PAIRS:
    ANTONYMS[_a] = ANTONYMS.get(_a, frozenset()) | {_b}
    ANTONYMS[_b] = ANTONYMS.get(_b, frozenset()) | {_a}

_STOP = frozenset({
    "a", "an", "the", "of", "to", "in", "on", "and", "or", "we", "it", "is", "be", "that", "this",
    "i", "should", "are", "for", "by", "with", "as", "at", "true", "believe", "my", "view",
})  # fmt: skip
_SUFFIX = re.compile(r"(ing|ed|es|s)$")


def _stem(word: str) -> str:
    return _SUFFIX.sub("", word) if len(word) > 4 else word


_IRREGULAR = {"kept": "keep", "held": "hold", "fell": "fall", "rose": "rise", "won": "win",
              "lost": "lose", "began": "begin", "stopped": "stop", "banned": "ban",
              # comparatives and superlatives of the adjectives above: "Nuclear power is one of
              # the safest energy sources" opposes "Nuclear power is too dangerous"
              "safer": "safe", "safest": "safe", "best": "good", "worst": "bad"}  # fmt: skip


def _lemmas(word: str) -> set[str]:
    """The word and its likely base forms (legalized -> legalize, banned -> ban, kept -> keep,
    safest -> safe)."""
    out = {word}
    if word in _IRREGULAR:
        out.add(_IRREGULAR[word])
    for suffix, cut in (("ied", 3), ("ed", 1), ("ed", 2), ("es", 2), ("s", 1), ("ing", 3)):
        if word.endswith(suffix) and len(word) - cut >= 3:
            out.add(word[:-cut] + ("y" if suffix == "ied" else ""))
    return out


def _antonym_hits(query: set[str], claim: set[str]) -> int:
    """Words of one text whose antonym is in the other (and not in the first)."""
    q = {w: _lemmas(w) for w in query}
    c = {w: _lemmas(w) for w in claim}
    q_all = set().union(*q.values()) if q else set()
    c_all = set().union(*c.values()) if c else set()
    hits = 0
    for forms in q.values():
        if forms & c_all:
            continue
        opposite = set().union(*(ANTONYMS.get(f, frozenset()) for f in forms))
        if opposite & c_all and not opposite & q_all:
            hits += 1
    return hits


def _negations(words: list[str]) -> int:
    return sum(1 for w in words if w in NEGATIONS or w.endswith("n't"))


def _before_than(words: list[str]) -> list[str]:
    """The words before a comparison's foil: in "more harm than good" the claim is "harm";
    "good" is what it is weighed against and says nothing of the side on its own."""
    return words[: words.index("than")] if "than" in words else words


def lexical_flip(query: str, claim: str) -> tuple[float, float]:
    """``flip`` (+1 polarity differs, -1 same) and the content-word Jaccard overlap. Antonyms
    are looked for before a comparison's "than" (:func:`_before_than`)."""
    q, c = tokens(query), tokens(claim)
    flips = (_negations(q) % 2) != (_negations(c) % 2)
    q_set, c_set = set(_before_than(q)), set(_before_than(c))
    if _antonym_hits(q_set, c_set) % 2 == 1:
        flips = not flips
    content_q = {_stem(w) for w in q if w not in NEGATIONS and w not in _STOP}
    content_c = {_stem(w) for w in c if w not in NEGATIONS and w not in _STOP}
    union = content_q | content_c
    overlap = len(content_q & content_c) / len(union) if union else 0.0
    return (1.0 if flips else -1.0), overlap


@dataclass
class AlignmentModel:
    """Weights of :data:`ALIGNMENT_FEATURES`, with provenance (no intercept: see the module)."""

    weights: list[float]
    features: list[str] = field(default_factory=lambda: list(ALIGNMENT_FEATURES))
    trained_on: dict[str, Any] = field(default_factory=dict)

    def save(self, path: Path = ALIGNMENT_FILE) -> None:
        path.write_text(json.dumps(asdict(self), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path = ALIGNMENT_FILE) -> AlignmentModel:
        try:
            model = cls(**json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError) as err:
            raise ConfigError(f"{path}: not an alignment model ({err})") from err
        if tuple(model.features) != ALIGNMENT_FEATURES or len(model.weights) != 2:
            raise ConfigError(f"{path}: features {model.features} are not {ALIGNMENT_FEATURES}")
        return model


def alignment_features(
    embedder: Embedder,
    query: str,
    claims: Sequence[str],
    contrast: Sequence[float | None] | None = None,
) -> list[list[float]]:
    """The :data:`ALIGNMENT_FEATURES` of the query against each claim.

    ``contrast``: the claims' ``cos(q, c) - cos(q, not c)`` where the caller has it (the query
    engine computes it on the server from stored vectors); the others are embedded here.
    """
    from argkb.stance.model import embed_unique

    if not claims:
        return []
    known: list[float | None] = list(contrast) if contrast is not None else [None] * len(claims)
    missing = [i for i, value in enumerate(known) if value is None]
    if missing:
        negated = [negate(claims[i]) for i in missing]
        vectors = embed_unique(embedder, [query, *(claims[i] for i in missing), *negated])
        n = len(missing)
        same = vectors[1 : n + 1] @ vectors[0]
        opposite = vectors[n + 1 :] @ vectors[0]
        for row, i in enumerate(missing):
            known[i] = float(same[row] - opposite[row])
    rows = []
    for claim, value in zip(claims, known, strict=True):
        flip, overlap = lexical_flip(query, claim)
        rows.append([flip * overlap, float(value or 0.0)])
    return rows


class StanceAligner:
    """P(q aligned c) for the query engine: ``aligner(query, claims) -> [p, ...]``.

    Matches :class:`argkb.query.alignment.StanceAlignment`. Pass the engine's own
    :class:`~argkb.embed.model.Embedder`, so the model is loaded once and embeddings are shared.

    ``hard``: answer 1 (aligned) or 0 (opposed) instead of the probability, opposed where
    P < 0.5. The engine then weighs an aligned claim's premises fully to their own side, as
    Dumani et al. do for every claim, and flips only the claims the estimator judges opposed.
    A soft probability of .5 to .9, which the estimator gives to a claim identical to the query
    or to a topic query that states no position, moves that share of the claim's premise mass
    to the other side (docs/evaluation.md, "The default configuration of argkb query").
    """

    def __init__(
        self,
        embedder: Embedder,
        model: AlignmentModel | None = None,
        *,
        prior: float = 0.5,
        hard: bool = False,
    ) -> None:
        if not 0.0 < prior < 1.0:
            raise ConfigError(f"alignment prior must be strictly between 0 and 1, got {prior}")
        self.embedder = embedder
        self.model = model if model is not None else AlignmentModel.load()
        self.prior = prior
        self.hard = hard

    def __call__(
        self, query: str, claims: list[str], contrast: Sequence[float | None] | None = None
    ) -> list[float]:
        rows = alignment_features(self.embedder, query, claims, contrast)
        w, b = self.model.weights, math.log(self.prior / (1.0 - self.prior))
        p = [1.0 / (1.0 + math.exp(-(b + sum(x * y for x, y in zip(w, row, strict=True)))))
             for row in rows]  # fmt: skip
        return [1.0 if value >= 0.5 else 0.0 for value in p] if self.hard else p
