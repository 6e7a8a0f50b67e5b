"""The biased coreset premise ranker (Fromm et al., ECIR 2021, Sec. 3.2, Algorithm 1).

Greedy selection of ``k`` premises that are relevant and together represent every candidate:
the first pick maximises ``alpha * r(p)``; each next pick maximises
``alpha * r(p) - (1 - alpha) * max_{a in A} sim(a, p)``. ``alpha = 1`` ranks by relevance only;
``alpha = 0`` is the pure (min-max) coreset criterion after the first pick. Pure NumPy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray


class Coreset(NamedTuple):
    """Selected candidates in selection (= rank) order, and the objective value of each pick."""

    order: NDArray[np.int64]
    gains: NDArray[np.float64]


def biased_coreset(
    relevance: ArrayLike, similarity: ArrayLike, k: int, alpha: float = 0.5
) -> Coreset:
    """Greedy Algorithm 1: the selected candidates and the objective value at each pick.

    Parameters
    ----------
    relevance : array_like of float, shape (n,)
        ``r(p|q)`` of each candidate.
    similarity : array_like of float, shape (n, n)
        ``psim`` between candidates (e.g. cosine of embeddings).
    k : int
        Number of premises to return (fewer if there are fewer candidates).
    alpha : float
        Trade-off in [0, 1] between relevance and coverage (Algorithm 1).
    """
    import numpy as np

    r = np.asarray(relevance, dtype=np.float64)
    sim = np.asarray(similarity, dtype=np.float64)
    n = len(r)
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha}")
    chosen: list[int] = []
    gains: list[float] = []
    available = np.ones(n, dtype=bool)
    closest = np.full(n, -np.inf)  # max similarity of each candidate to the chosen set
    for _ in range(min(k, n)):
        score = alpha * r if not chosen else alpha * r - (1.0 - alpha) * closest
        score = np.where(available, score, -np.inf)
        pick = int(np.argmax(score))  # ties: the lowest index, i.e. the caller's order
        chosen.append(pick)
        gains.append(float(score[pick]))
        available[pick] = False
        closest = np.maximum(closest, sim[pick])
    return Coreset(np.asarray(chosen, dtype=np.int64), np.asarray(gains, dtype=np.float64))


def assign_to_nearest(similarity: ArrayLike, selected: ArrayLike) -> NDArray[np.int64]:
    """For each candidate, the position in ``selected`` of its most similar selected premise.

    Turns a coreset into clusters (each selected premise represents the candidates nearest it),
    which is what Task A scores.
    """
    import numpy as np

    sim = np.asarray(similarity, dtype=np.float64)
    chosen = np.asarray(selected, dtype=np.int64)
    if len(chosen) == 0:
        return np.full(len(sim), -1, dtype=np.int64)
    nearest = np.argmax(sim[:, chosen], axis=1)
    nearest[chosen] = np.arange(len(chosen))  # a selected premise represents itself
    return nearest.astype(np.int64)
