"""Every parameter of a query, its default and its help text: the one place to change them.

``argkb query``'s options are listed by hand in ``argkb/cli/query.py``: one
``setting_option(name)`` call per offered setting takes its choices, default and help from here
(``--alpha`` and ``--snippets`` are written out there; they take their defaults from here).
A field's ``option=True`` only marks it for :func:`option_names`; it adds no option by itself, so
a new setting that ``argkb query`` should offer needs its own ``setting_option`` line. ``argkb
serve`` and the evaluation harness's ``default`` ranker use :data:`DEFAULT`, and
docs/reference/settings.md is generated from the fields below (``.ci/gen_reference.py``). A
setting's help says what it does and where its default was chosen; the numbers live in
docs/evaluation.md.
"""

# ruff: noqa: RUF009  (_setting returns dataclasses.field, which ruff cannot see through)
from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Literal, get_args, get_origin

from argkb.errors import ConfigError

RankerName = Literal["hybrid", "pfidf", "coreset"]
StanceChoice = Literal["pro", "con", "both"]
AlignmentChoice = Literal["model", "soft", "cross", "always"]
Representative = Literal["longest", "centroid", "pagerank", "best"]
CoresetRelevance = Literal["learned", "cosine", "pfidf"]
PremiseClusters = Literal["offline", "query"]
FusionMethod = Literal["rrf", "linear"]


def _setting(default: Any, help: str, *, option: bool = False) -> Any:
    """A field with its help text; ``option``: ``argkb query`` offers it as an option (listed by
    :func:`option_names`; the option itself is a ``setting_option`` line in cli/query.py)."""
    return field(default=default, metadata={"help": help, "option": option})


@dataclass(frozen=True)
class QuerySettings:
    """How a query is answered. ``QuerySettings()`` is argkb's default (:data:`DEFAULT`)."""

    ranker: RankerName = _setting(
        "hybrid",
        "hybrid: similar claims' premises, BM25 and vector premise search, fused as the fusion "
        "setting says (a weighted sum of features by default); pfidf: Dumani et al. 2020 "
        "(frequency x specificity); coreset: Fromm et al. 2021.",
        option=True,
    )
    alignment: AlignmentChoice = _setting(
        "model",
        "Whether a similar claim takes the query's side: model = the stance-alignment estimator "
        "decides (a claim it judges to negate the query counts its pro premises as con); soft = "
        "its probability weighs both sides; cross = the stance cross-encoder decides, reading "
        "the claim as a premise of the query, for the cross_claims most credited claims that "
        "agree with the query in explicit negation (the model estimator for the rest); always = "
        "every claim is aligned (Dumani et al.'s experiments). cross places .901 of the judged "
        "premises shown for SIGIR-19's biased topics on the right side, model .839 "
        "(bench/side_accuracy.py); it is not the default because its held-out SIGIR-19 nDCG@10 "
        "is .022 above BM25, model's .034 (docs/results/answer-quality.md).",
        option=True,
    )
    cross_claims: int | None = _setting(
        12,
        "alignment = cross: the cross-encoder decides for at most this many claims, those the "
        "claim route credits most (P(c|q), then nearness to the query); the model estimator for "
        "the others. None: for every claim. 12 keeps the 100k-argument latency goal (p50 87 to "
        "97 ms; every claim: 114 to 122 ms) and the side accuracy of asking every claim (8: .914 "
        "against .923).",
    )
    representative: Representative = _setting(
        "longest",
        "Which premise shows a cluster. pfidf: longest, centroid (nearest the members' mean) "
        "or pagerank (best: longest); hybrid: longest, else its best-fused member; coreset: "
        "always the premise it picked.",
        option=True,
    )
    claims_k: int = _setting(10, "Similar claims retrieved (the claim route).")
    claim_pool: int = _setting(50, "Candidates asked of each claim retriever (BM25, vector).")
    claim_weight: float = _setting(
        1.0,
        "Weight of cosine vs BM25 in claim retrieval; 1: claims are scored by cosine alone and "
        "BM25 only proposes candidates (normalised BM25 gave a claim sharing one word with a "
        "short query full credit; ArgKP train cannot tell 0.7 from 1).",
    )
    min_similarity: float = _setting(0.4, "Cosine below which a claim is not similar.")
    claim_temperature: float | None = _setting(0.05, "Softmax temperature of P(c|q); None: linear.")
    coreset_alpha: float = _setting(
        0.8,
        "Coreset trade-off: 1 = relevance only, 0 = coverage only (chosen on held-out ArgKP "
        "train topics, bench/train_relevance.py).",
    )
    coreset_relevance: CoresetRelevance = _setting(
        "learned",
        "Coreset relevance r(p|q): the relevance filter fitted on ArgKP train, cosine to the "
        "query, or the pf-icf share.",
        option=True,
    )
    coreset_filter: float = _setting(
        0.0, "Coreset relevance filter: share of the top premise's claim mass P(c|q)."
    )
    premise_clusters: PremiseClusters = _setting(
        "offline",
        "pfidf premise clusters: from `argkb cluster`, or made now over the candidates.",
        option=True,
    )
    premise_cut: float = _setting(
        0.40, "Cut of the query-time premise clustering (premise_clusters = query)."
    )
    bm25_depth: int = _setting(100, "Hybrid ranker: depth of the BM25 premise route.")
    vector_depth: int = _setting(100, "Hybrid ranker: depth of the vector premise route.")
    collection_widen: int = _setting(
        20, "With a collection, the direct routes read this many times deeper."
    )
    cluster_claims: int = _setting(
        100,
        "Claims read per retrieved claim cluster (the retrieved one and those nearest the "
        "query; 0: all). On a 400k-argument synthetic graph one cluster held 1,060 claims.",
    )
    rrf_k: float = _setting(10.0, "Reciprocal rank fusion constant (hybrid, fusion = rrf).")
    weight_claims: float = _setting(
        3.0,
        "Hybrid route weight of the claim route (fusion = rrf). Weights and k chosen on ArgKP "
        "train (bench/tune_hybrid.py): of the settings within .01 TaskB@10 of the best, the one "
        "that weighs the direct routes most.",
    )
    weight_bm25: float = _setting(1.0, "Hybrid route weight of BM25 over premises (fusion = rrf).")
    weight_cosine: float = _setting(
        0.5, "Hybrid route weight of vector search over premises (fusion = rrf)."
    )
    weight_argument: float = _setting(
        0.0,
        "Hybrid route weight of the argumentativeness prior (argkb.retrieve.argument_prior; "
        "fusion = rrf); "
        "0 leaves the route out and unread.",
    )
    fusion: FusionMethod = _setting(
        "linear",
        "How the hybrid combines its evidence: rrf = weighted reciprocal rank fusion of the "
        "routes (weight_*, rrf_k); linear = a weighted sum of each premise's features "
        "(linear_*: BM25 over the best BM25, cosine to the query, cosine of its best conclusion, "
        "its cluster's claim-route share, length, argumentativeness). The linear weights were "
        "fitted on the five visible benchmarks with the English-analyzer full-text indexes "
        "(bench/linear_study.py --grid all, the best mean over ArgKP, ArgQuality, microtexts "
        "and SIGIR-19); each benchmark's held-out row "
        "in docs/evaluation.md is scored with weights fitted without it.",
        option=True,
    )
    linear_bm25: float = _setting(
        0.5, "Linear fusion: weight of the premise's BM25 score over the query's best BM25."
    )
    linear_cosine: float = _setting(
        1.5, "Linear fusion: weight of the premise's cosine to the query."
    )
    linear_claim: float = _setting(
        2.0,
        "Linear fusion: weight of the cosine between the query and the premise's most similar "
        "conclusion on that side (how well the claim route's claim actually matches).",
    )
    linear_support: float = _setting(
        0.25,
        "Linear fusion: weight of the premise cluster's claim-route share P(pi^s|q) over the "
        "side's largest (Dumani et al.'s pf-icf: how many similar claims its cluster serves).",
    )
    linear_length: float = _setting(
        0.5,
        "Linear fusion: weight of log(1 + words) / log(101) (1 at 100 words): on args.me, posts "
        "judged spam or not an argument are short (SIGIR-19 dev: median 41 words, relevant ones "
        "112 to 166).",
    )
    linear_argument: float = _setting(
        1.0,
        "Linear fusion: weight of the argumentativeness prior's probability "
        "(argkb.retrieve.argument_prior, trained on 'Is Argument?' of ArgQuality and SIGIR-19 "
        "dev; the fit scored it with priors that never saw the query's topics); 0 leaves it "
        "unread.",
    )
    cluster_max_words: int | None = _setting(
        100,
        "Hybrid ranker: a premise longer than this many words is shown on its own instead of "
        "inside its premise cluster (a long forum post is rarely a paraphrase of another); its "
        "claim-route evidence stays its cluster's. None: every premise in its cluster. 100 was "
        "chosen among 50, 100 and 200 leaving each benchmark out (the same choice for every "
        "one); it leaves ArgKP and microtexts, whose premises are short, unchanged.",
    )
    snippets: bool = _setting(
        False,
        "Give each premise of more than two sentences its best two sentences for the query "
        "(members get a `snippet`; needs `argkb sentences`, one more read per answer). Ranking "
        "is unchanged; off by default so that answers keep their shape.",
    )

    def __post_init__(self) -> None:
        """A setting with a fixed set of values refuses any other (a typo would otherwise be
        read as some other choice)."""
        for name in (f.name for f in fields(self)):
            allowed = choices_of(name)
            if allowed and getattr(self, name) not in allowed:
                raise ConfigError(
                    f"setting {name}: {getattr(self, name)!r} is not one of {', '.join(allowed)}"
                )


def help_of(name: str) -> str:
    """The help text of setting ``name``."""
    return str(_fields()[name].metadata["help"])


def default_of(name: str) -> Any:
    """The default of setting ``name``."""
    value = _fields()[name].default
    return None if value is MISSING else value


def choices_of(name: str) -> tuple[str, ...]:
    """The allowed values of a setting whose type is a Literal; () for any other setting."""
    hint = QuerySettings.__annotations__[name]
    if isinstance(hint, str):
        hint = globals().get(hint)
    return tuple(get_args(hint)) if get_origin(hint) is Literal else ()


def _fields() -> dict[str, Any]:
    return {f.name: f for f in fields(QuerySettings)}


def option_names() -> list[str]:
    """The settings ``argkb query`` offers as options, in declaration order."""
    return [f.name for f in fields(QuerySettings) if f.metadata.get("option")]


DEFAULT = QuerySettings()
"""argkb's default query: what ``argkb query``, ``argkb serve`` and the harness's ``default``
ranker answer with when told nothing else (docs/evaluation.md gives its numbers)."""

DEFAULT_K = 10
"""Clusters per stance when a caller does not say."""

MAX_QUERY_CHARS = 2000
"""The longest claim or topic a user may ask, in characters: the CLI and the HTTP API alike."""
