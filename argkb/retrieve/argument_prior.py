"""The argumentativeness prior: how much a premise's text reads as an argument at all.

Debate portals are full of posts that are no argument ("I accept this debate", "Thanks for the
debate", forfeits, openers that only restate the resolution); a retrieval route that shares the
query's words with them ranks them high. The prior is a logistic regression on the premise's
all-MiniLM-L6-v2 embedding and its length, fitted on "Is Argument?" judgements
(``bench/train_argument_prior.py``; ``argument_prior.json`` beside this file).

Embeddings are unit length, so the embedding's part of the logit, ``w . x``, is
``|w| (2 s - 1)`` where ``s`` is Neo4j's ``vector.similarity.cosine(x, w / |w|)`` (which reports
``(1 + cos) / 2``): ``cypher/query/premise_edges.cypher`` computes ``s`` on the server next to the
query's cosine, and no embedding travels to the client.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from argkb.db import cypher

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

MODEL = Path(__file__).with_name("argument_prior.json")


@dataclass(frozen=True)
class ArgumentPrior:
    direction: tuple[float, ...]  # w / |w|, unit length
    norm: float  # |w|
    length: float  # weight of log(1 + words)
    bias: float

    def logits(self, similarity: ArrayLike, words: ArrayLike) -> NDArray[np.float64]:
        """The logit of each premise from ``vector.similarity.cosine(embedding, direction)``
        and its word count; a premise without an embedding (similarity < 0) gets the lowest
        logit its length allows."""
        import numpy as np

        s = np.asarray(similarity, np.float64)
        embedding_part = np.where(s >= 0.0, self.norm * cypher.cosine(s), -self.norm)
        return embedding_part + self.length * np.log1p(np.asarray(words, np.float64)) + self.bias


@cache
def load(path: Path = MODEL) -> ArgumentPrior:
    payload = json.loads(path.read_text(encoding="utf-8"))
    return ArgumentPrior(
        tuple(float(x) for x in payload["direction"]),
        float(payload["norm"]),
        float(payload["length"]),
        float(payload["bias"]),
    )
