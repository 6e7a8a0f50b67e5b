"""What a query returns: :class:`QueryResult` and its parts, the schema of ``argkb query --json``
and of the HTTP API's answers (:mod:`argkb.serve.models` mirrors it); and :class:`Ranked`, a
ranker's entry before it is materialised."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Ranked:
    """One entry of a ranker's list before it is materialised: its score, the candidate premises
    it stands for (internal ids, representative first for the coreset and hybrid rankers), its
    cluster label and, for the hybrid ranker, what explains its rank."""

    score: float
    premises: list[int]
    label: int
    explain: dict[str, Any] | None = None


@dataclass(frozen=True)
class MemberSource:
    """Where an argument a premise is used in comes from (``(:Argument)-[:FROM]->(:Source)``).

    ``title``: a title, ArgKP topic or args.me discussion title, None where the data has none
    (the ``sid`` names the source then); ``url``: as the data gave it, None where it gave none.
    """

    sid: str
    title: str | None = None
    url: str | None = None


@dataclass
class Member:
    """A premise of an answer cluster."""

    key: str
    text: str
    pagerank: float | None
    arguments: list[str]
    # where the premise's stance in these arguments came from: "data", "model" (argkb stance)
    # or "data+model"
    stance_source: str = "data"
    # the distinct sources of ``arguments``, by sid (empty where they have none)
    sources: list[MemberSource] = field(default_factory=list)


@dataclass
class SnippetMember(Member):
    """A premise of an answer with its snippet, the members of an answer asked for with
    ``QuerySettings(snippets=True)``: the best two sentences for the query of a premise longer
    than two sentences (:mod:`argkb.sentences.snippet`), None for a shorter or unsplit one.

    A subclass rather than a field of :class:`Member`, so that answers without snippets (the
    default) serialise exactly as before: ``argkb query --json`` and the API write every field
    of a dataclass, ``null`` ones included.
    """

    snippet: list[str] | None = None


@dataclass
class ResultCluster:
    """One answer: a cluster of premises that say the same, shown by its representative."""

    rank: int
    stance: str
    score: float
    representative: Member
    size: int
    members: list[Member]
    explain: dict[str, Any] | None = None


@dataclass
class QueryResult:
    """The answer to a query: ranked clusters per side, the similar claims, and what it took."""

    query: str
    ranker: str
    claims: list[dict[str, Any]]
    pro: list[ResultCluster] = field(default_factory=list)
    con: list[ResultCluster] = field(default_factory=list)
    message: str | None = None
    seconds: dict[str, float] = field(default_factory=dict)
    candidates: int = 0  # distinct candidate premises (before ranking)
    notes: list[str] = field(default_factory=list)  # what the answer had to do without
