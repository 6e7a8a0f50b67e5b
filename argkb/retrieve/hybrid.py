"""Moved to :mod:`argkb.query.rankers.hybrid` (issue 27); kept while the importers move."""

from argkb.query.rankers.hybrid import (
    ROUTES,
    DirectHits,
    Entry,
    Fusion,
    SidePool,
    direct_hits,
    fuse_pool,
    premise_ranks,
    side_pools,
)

__all__ = [
    "ROUTES",
    "DirectHits",
    "Entry",
    "Fusion",
    "SidePool",
    "direct_hits",
    "fuse_pool",
    "premise_ranks",
    "side_pools",
]
