"""The rankers a query can use, by the name the ``ranker`` setting gives.

* ``hybrid`` (:mod:`.hybrid`): the claim route of Dumani et al. and BM25 and vector search over
  premises, fused by a weighted sum of each premise's features (or by reciprocal rank, setting
  ``fusion``); argkb's default.
* ``pfidf`` (:mod:`.pfidf`): Dumani et al., ECIR 2020.
* ``coreset`` (:mod:`.coreset`): Fromm et al., ECIR 2021.

Each is one class following :class:`~argkb.query.rankers.base.Ranker`; add one here to make it
selectable (the CLI's ``--ranker`` choices come from :data:`argkb.query.settings.RankerName`).
"""

from __future__ import annotations

from collections.abc import Callable

from argkb.query.rankers.base import Gathered, QueryContext, Ranker
from argkb.query.rankers.coreset import CoresetPool, CoresetRanker
from argkb.query.rankers.hybrid import HybridRanker
from argkb.query.rankers.pfidf import PfidfRanker

RANKERS: dict[str, Callable[[], Ranker]] = {
    "hybrid": HybridRanker,
    "pfidf": PfidfRanker,
    "coreset": CoresetRanker,
}

__all__ = [
    "RANKERS",
    "CoresetPool",
    "CoresetRanker",
    "Gathered",
    "HybridRanker",
    "PfidfRanker",
    "QueryContext",
    "Ranker",
]
