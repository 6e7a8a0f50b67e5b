"""Moved to :mod:`argkb.query` (issue 27); this name is kept while the importers move."""

from argkb.errors import QueryError
from argkb.query.alignment import (
    StanceAlignment,
    always_aligned,
    choose_alignment,
    model_alignment,
)
from argkb.query.engine import QueryEngine
from argkb.query.rankers.coreset import CoresetPool
from argkb.query.settings import (
    AlignmentChoice,
    CoresetRelevance,
    PremiseClusters,
    RankerName,
    Representative,
    StanceChoice,
)
from argkb.query.settings import QuerySettings as Settings
from argkb.query.types import Member, MemberSource, QueryResult, Ranked, ResultCluster

DEFAULT_RANKER: RankerName = "hybrid"

__all__ = [
    "DEFAULT_RANKER",
    "AlignmentChoice",
    "CoresetPool",
    "CoresetRelevance",
    "Member",
    "MemberSource",
    "PremiseClusters",
    "QueryEngine",
    "QueryError",
    "QueryResult",
    "Ranked",
    "RankerName",
    "Representative",
    "ResultCluster",
    "Settings",
    "StanceAlignment",
    "StanceChoice",
    "always_aligned",
    "choose_alignment",
    "model_alignment",
]
