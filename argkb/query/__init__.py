"""Answering a query claim: the engine, its settings, its rankers and what it returns.

    from argkb.query import QueryEngine
    result = QueryEngine(driver, embedder).query("We should abandon fossil fuels")

is what ``argkb query`` and ``argkb serve`` answer by default (:data:`DEFAULT`). Where to change
what: a default or its help text in :mod:`.settings`; how candidates are read in
:mod:`.candidates`; a ranker in :mod:`.rankers`; the answer's shape in :mod:`.types`.
"""

from __future__ import annotations

from argkb.errors import QueryError
from argkb.query.alignment import StanceAlignment, always_aligned, choose_alignment
from argkb.query.engine import QueryEngine
from argkb.query.settings import DEFAULT, QuerySettings
from argkb.query.types import Member, MemberSource, QueryResult, ResultCluster

__all__ = [
    "DEFAULT",
    "Member",
    "MemberSource",
    "QueryEngine",
    "QueryError",
    "QueryResult",
    "QuerySettings",
    "ResultCluster",
    "StanceAlignment",
    "always_aligned",
    "choose_alignment",
]
