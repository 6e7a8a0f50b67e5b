"""The typed responses of the HTTP API (they make its OpenAPI document).

``GET /api/v1/query`` answers with the query engine's own dataclasses
(:class:`argkb.query.types.QueryResult`), serialised exactly as ``argkb query --json`` does;
the browse endpoints answer with the pydantic models below, and so does ``GET /api/v1/pairs``,
whose :class:`Pairs` mirrors :class:`argkb.sentences.answer.PairsResult` field for field (a test
compares the two).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from argkb.query.types import MemberSource


class ErrorBody(BaseModel):
    """Every error: a status, a short code and a message a person can act on."""

    status: int = Field(description="The HTTP status, repeated.")
    error: str = Field(description="A short machine-readable code, e.g. 'not_found'.")
    message: str = Field(description="What went wrong and what to do about it.")


class Health(BaseModel):
    status: Literal["ok"]


class GraphStatus(BaseModel):
    units: int
    claims: int
    premises: int
    arguments: int
    corpora: int
    claim_clusters: int
    premise_clusters: int
    embedded_units: int
    ranked_units: int


class ServiceStatus(BaseModel):
    version: str = Field(description="argkb's version.")
    default_ranker: str
    model: str = Field(description="The embedding model the service loaded.")
    database: str | None
    graph: GraphStatus
    ready: bool = Field(description="Whether queries can be answered: claims exist and embedded.")
    hint: str | None = Field(default=None, description="What to run when not ready.")


class ClusterRef(BaseModel):
    cid: str
    kind: str | None
    size: int | None


class PremiseUse(BaseModel):
    argument: str
    stance: str | None
    stance_source: str
    claim_key: str
    claim_text: str | None


class Unit(BaseModel):
    key: str
    text: str | None
    pagerank: float | None
    corpus: str | None
    is_claim: bool
    is_premise: bool
    embedded: bool
    clusters: list[ClusterRef]
    concluded_by: int = Field(description="How many arguments conclude this unit.")
    premise_count: int = Field(description="How many arguments use it as a premise.")
    premise_of: list[PremiseUse] = Field(description="At most `limit` of those arguments.")


class Premise(BaseModel):
    key: str
    text: str | None
    stance: str | None
    stance_source: str
    pagerank: float | None


class Undercut(BaseModel):
    aid: str
    source: str | None
    premises: list[Premise]


class Argument(BaseModel):
    aid: str
    stance: str | None
    source: str | None
    premises: list[Premise]
    undercuts: list[Undercut] = Field(
        description="The arguments that attack this one's step from premises to claim (AIF "
        "undercuts), each with its premises."
    )


class ClaimArguments(BaseModel):
    key: str
    text: str | None
    total: int = Field(description="How many arguments conclude the claim.")
    arguments: list[Argument] = Field(description="At most `limit` of them, by argument key.")


class ClusterMember(BaseModel):
    key: str
    text: str | None
    pagerank: float | None


class Cluster(BaseModel):
    cid: str
    kind: str | None
    method: str | None
    size: int
    cf_pro: float | None
    cf_con: float | None
    members: list[ClusterMember] = Field(description="At most `limit`, highest PageRank first.")


class GraphNode(BaseModel):
    id: str = Field(description="The unit's key.")
    text: str | None
    kind: Literal["claim", "premise", "claim+premise", "unit"]
    pagerank: float | None
    depth: int = Field(description="Hops from the unit asked for.")


class GraphEdge(BaseModel):
    source: str = Field(
        description="Key of the premise (premise_of, undercuts) or of either unit (same_as)."
    )
    target: str = Field(
        description="Key of the conclusion; for undercuts, the conclusion of the argument the "
        "undercut attacks (its step from premises to conclusion, not the conclusion itself)."
    )
    type: Literal["premise_of", "undercuts", "same_as"]
    stance: str | None = Field(description="The premise's stance towards the conclusion.")
    argument: str | None = Field(description="The argument the edge stands for.")


class Graph(BaseModel):
    key: str
    depth: int
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    truncated: bool = Field(
        description="Whether a limit cut the neighbourhood short: the node limit, or the 20 x "
        "limit edges read per hop."
    )


class PairSentence(BaseModel):
    uid: str
    text: str
    position: int = Field(description="Its 0-based order in the premise.")


class PairArgument(BaseModel):
    aid: str
    stance: str = Field(description="The premise's stance towards this argument's conclusion.")
    conclusion: str | None


class PairExplain(BaseModel):
    model: str = Field(description="The first stage that scored the top sentence: bm25.")
    top_sentence: str = Field(description="The uid of the retrieved sentence.")
    top_position: int
    top_score: float = Field(description="Its first-stage score.")
    features: dict[str, float] = Field(
        description="first (the first-stage score over the best candidate's), topic, argument, "
        "claim (of its premise): what the pipeline re-ranked by."
    )
    weights: dict[str, float] = Field(description="The pair's score: the weighted features.")
    pairing: Literal["next", "previous", "similar", "predicted", "single"] = Field(
        description="Which sentence of its premise joined the top one (single: none was left)."
    )


class PairAnswer(BaseModel):
    rank: int
    score: float = Field(description="The pipeline's score (explain: its features).")
    unit: str = Field(description="The key of the premise both sentences come from.")
    sentences: list[PairSentence] = Field(description="In text order; one where none was left.")
    top: int = Field(description="Which of `sentences` was retrieved.")
    stance: str | None = Field(
        description="pro or con where the premise's known stances agree, mixed, or null."
    )
    arguments: list[PairArgument]
    explain: PairExplain | None = Field(default=None, description="With `explain=true`.")


class Pairs(BaseModel):
    query: str
    model: str
    pairing: str
    pipeline: dict[str, Any] = Field(description="The parts of the pipeline used.")
    pairs: list[PairAnswer]
    message: str | None = Field(default=None, description="Why there are no pairs.")
    notes: list[str] = Field(
        default_factory=list,
        description="What the answer may lack and what to run (corpora loaded since the last "
        "`argkb sentences`, premises without an embedding).",
    )
    seconds: dict[str, float]


class KeyPointExample(BaseModel):
    text: str
    sources: list[MemberSource] = Field(
        description="Where the premise's arguments come from, as in `/api/v1/query`."
    )


class KeyPoint(BaseModel):
    key_point: str = Field(description="A sentence of one of the stance's premises.")
    prevalence: int = Field(description="Premises the matching model assigns to it.")
    arguments: int = Field(description="Arguments those premises serve.")
    source: KeyPointExample = Field(
        alias="from", description="The premise the key point was taken from."
    )
    examples: list[KeyPointExample] = Field(description="Up to two other matched premises.")


class KeyPointStance(BaseModel):
    premises: int
    key_points: list[KeyPoint] = Field(description="Most prevalent first.")


class KeyPoints(BaseModel):
    topic: str
    premises: int = Field(description="Premises of the arguments that conclude the topic.")
    unknown_stance: int = Field(description="Of them, left out: their stance is unknown.")
    stances: dict[str, KeyPointStance]
