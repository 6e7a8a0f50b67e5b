"""Features of a (premise, conclusion) pair for the stance model, and the negation cues.

The embedding features follow the usual sentence-pair recipe (InferSent, Conneau et al., EMNLP
2017; Sentence-BERT, Reimers & Gurevych, EMNLP 2019, Sec. 3): with ``u`` the premise and ``v``
the conclusion embedding (unit length, all-MiniLM-L6-v2), blocks of

* ``product``: ``u * v`` (which dimensions agree);
* ``difference``: ``|u - v|``;
* ``contrast``: ``u * (v - v_neg)`` where ``v_neg`` embeds the conclusion negated by
  :func:`negate`; its sum ``u . v - u . v_neg`` says whether the premise is nearer the conclusion
  or its negation, a direction that exists for every topic, seen or not;
* ``premise``: ``u`` itself (the premise's own wording, e.g. "harmful", "unfair");
* ``oriented``: ``u * o`` with ``o`` the conclusion's orientation (:func:`orientation`): -1 when
  it proposes to restrict or remove something ("We should ban X", "X should be abolished"),
  +1 otherwise ("We should legalize X", "Should X be allowed?"), flipped by a negation. A pro
  premise of "ban X" and a con premise of "legalize X" both say X is bad, so ``u * o`` turns
  stance into "does the premise speak well of the subject", a question that carries over to
  unseen topics (topic-disjoint ArgKP train folds: .70 accuracy with it, .60 without);

and ``lexical``: negation cues (:data:`NEGATIONS`) of premise and conclusion, their parity, and
contrast markers ("but", "however"), counted by :func:`cue_counts`. Which blocks the shipped model
uses was chosen by measurement on topic-disjoint splits (``bench/train_stance.py``,
docs/evaluation.md, "Stance").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

# the negation rules live below embedding and stance both; imported here under their old names
from argkb.negation import NEGATIONS, negate, negation_count, tokens  # noqa: F401

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


BLOCKS = ("product", "difference", "contrast", "premise", "oriented", "lexical", "oriented_lexical")
WIDTHS = {"product": 384, "difference": 384, "contrast": 385, "premise": 384, "oriented": 384,
          "lexical": 5, "oriented_lexical": 6}  # fmt: skip
# words of a proposal to restrict or remove something (and their inflections)
RESTRICTIVE = frozenset({
    "ban", "banned", "banning", "prohibit", "prohibited", "prohibiting", "abolish", "abolished",
    "abolition", "abandon", "abandoned", "end", "ended", "criminal", "fight", "against", "limit",
    "limited", "stop", "stopped", "illegal", "cancel", "close", "closed", "offence", "offense",
    "restrict", "restricted", "outlaw", "outlawed", "forbid", "forbidden", "reduce", "eliminate",
    "remove", "abolishing", "abandoning", "ending", "criminalize", "criminalise",
})  # fmt: skip
CONTRASTS = frozenset({
    "but", "however", "although", "though", "yet", "whereas", "despite", "nevertheless",
})  # fmt: skip
LEXICAL = ("premise_negations", "conclusion_negated", "parity", "premise_contrasts", "length")


def orientation(conclusion: str) -> float:
    """-1 for a proposal to restrict or remove something (:data:`RESTRICTIVE`), else +1;
    an odd number of negation cues flips it ("We should not ban X" is +1)."""
    words = tokens(conclusion)
    value = -1.0 if any(w in RESTRICTIVE for w in words) else 1.0
    return -value if negation_count(conclusion) % 2 == 1 else value


def cue_counts(premise: str, conclusion: str) -> list[float]:
    """The ``lexical`` block (:data:`LEXICAL`) of one pair."""
    import math

    words = tokens(premise)
    p_neg = sum(1 for t in words if t in NEGATIONS or t.endswith("n't"))
    c_neg = negation_count(conclusion) > 0
    return [
        math.log1p(p_neg),
        float(c_neg),
        float((p_neg % 2 == 1) != c_neg),
        math.log1p(sum(1 for t in words if t in CONTRASTS)),
        math.log1p(len(words)),
    ]


def pair_features(
    premise: NDArray[np.float32],
    conclusion: NDArray[np.float32],
    negated: NDArray[np.float32],
    lexical: NDArray[np.float64],
    blocks: Sequence[str],
    orient: NDArray[np.float64] | None = None,
) -> NDArray[np.float64]:
    """The feature matrix of ``n`` pairs, blocks in the order given.

    Parameters
    ----------
    premise, conclusion, negated : ndarray, shape (n, d)
        Unit-length embeddings of the premises, their conclusions and the negated conclusions.
    lexical : ndarray, shape (n, len(LEXICAL))
        :func:`cue_counts` of each pair.
    orient : ndarray, shape (n,), optional
        :func:`orientation` of each conclusion (needed by the ``oriented*`` blocks).
    blocks : sequence of str
        Names from :data:`BLOCKS`.

    Returns
    -------
    ndarray, shape (n, sum of block widths)
    """
    import numpy as np

    u = np.asarray(premise, dtype=np.float64)
    v = np.asarray(conclusion, dtype=np.float64)
    w = np.asarray(negated, dtype=np.float64)
    parts: list[NDArray[np.float64]] = []
    for block in blocks:
        if block == "product":
            parts.append(u * v)
        elif block == "difference":
            parts.append(np.abs(u - v))
        elif block == "contrast":
            delta = u * (v - w)
            parts.append(np.hstack([delta, delta.sum(axis=1, keepdims=True)]))
        elif block == "premise":
            parts.append(u)
        elif block in ("oriented", "oriented_lexical"):
            if orient is None:
                raise ValueError(f"feature block {block!r} needs the conclusions' orientation")
            o = np.asarray(orient, dtype=np.float64).reshape(len(u), 1)
            if block == "oriented":
                parts.append(u * o)
            else:
                lex = np.asarray(lexical, dtype=np.float64).reshape(len(u), len(LEXICAL))
                parts.append(np.hstack([lex * o, o]))
        elif block == "lexical":
            parts.append(np.asarray(lexical, dtype=np.float64).reshape(len(u), len(LEXICAL)))
        else:
            raise ValueError(f"unknown feature block {block!r} (known: {', '.join(BLOCKS)})")
    return np.hstack(parts) if parts else np.zeros((len(u), 0))
