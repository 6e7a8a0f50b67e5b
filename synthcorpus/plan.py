"""The corpus plan: its shape (:class:`Shape`) and the constants and pure draws derived from it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from argkb.errors import ConfigError
from synthcorpus.draws import HashStream, Uniform, mix, normal, zipf_share
from synthcorpus.meanings import (
    Meaning,
    Topic,
    cluster_id,
    decode,
    join_words,
    meaning_key,
    meaning_space,
    render_claim,
    topic_content,
)
from synthcorpus.vocabulary import DOMAINS, PORTAL_FORMATS, PORTALS, REGIONS, issues

_BIG_PRIME = 1_000_003  # coprime with every space size here: a bijection j -> (P*j + b) mod S


@dataclass(frozen=True, slots=True)
class Shape:
    """Knobs of the corpus shape; the defaults follow the papers (see :mod:`synthcorpus`)."""

    premises_per_claim: float = 11.8
    """Mean premises per debate conclusion: 59,126 claims, 695,818 premises (001, sec. 5)."""
    premises_per_argument: tuple[float, ...] = (93.0, 8.0, 8.0, 1.0)
    """Relative weights of 1, 2, 3, ... premises per argument (004, Fig. 3b)."""
    debate_size_sigma: float = 0.8
    """Log-normal sigma of the number of arguments per debate."""
    max_arguments_per_debate: int = 200
    portals: tuple[tuple[str, float], ...] = (
        ("debate.org", 0.75),
        ("debatepedia.org", 0.10),
        ("debatewise.org", 0.08),
        ("idebate.org", 0.07),
    )
    """Portal shares of debates; debate.org dominates (001, sec. 4)."""
    debates_per_topic: float = 25.0
    min_topics: int = 10
    topic_zipf: float = 0.7
    claim_cluster_mean: float = 6.1
    """Mean debates per claim meaning: 63,250 claims in 10,611 clusters (003, sec. 6.1)."""
    conclusion_verbatim: float = 0.5
    """Share of debates whose conclusion is the canonical wording of its claim meaning."""
    reuse_rate: float = 0.05
    """Probability that a premise is the verbatim conclusion of an earlier debate (004, sec. 3)."""
    reuse_zipf: float = 1.1
    premise_cluster_mean: float = 4.0
    premise_zipf: float = 1.0
    paraphrase_rate: float = 0.6
    """Share of premise occurrences not in the canonical wording of their meaning."""
    pro_share: float = 0.53
    single_sentence_share: float = 0.2
    sentences_median: float = 8.0
    sentences_sigma: float = 0.9
    max_sentences: int = 150

    def __post_init__(self) -> None:
        probabilities = {
            "conclusion_verbatim": self.conclusion_verbatim,
            "reuse_rate": self.reuse_rate,
            "paraphrase_rate": self.paraphrase_rate,
            "pro_share": self.pro_share,
            "single_sentence_share": self.single_sentence_share,
        }
        for name, value in probabilities.items():
            if not 0.0 <= value <= 1.0:
                raise ConfigError(f"Shape.{name} must be a probability in [0, 1], got {value}")
        positive = {
            "premises_per_claim": self.premises_per_claim,
            "debates_per_topic": self.debates_per_topic,
            "claim_cluster_mean": self.claim_cluster_mean,
            "premise_cluster_mean": self.premise_cluster_mean,
            "sentences_median": self.sentences_median,
        }
        for name, value in positive.items():
            if not value > 0:
                raise ConfigError(f"Shape.{name} must be positive, got {value}")
        for name, value in {
            "debate_size_sigma": self.debate_size_sigma,
            "sentences_sigma": self.sentences_sigma,
            "topic_zipf": self.topic_zipf,
            "reuse_zipf": self.reuse_zipf,
            "premise_zipf": self.premise_zipf,
        }.items():
            if not value >= 0:
                raise ConfigError(f"Shape.{name} must be >= 0, got {value}")
        for name, count in {
            "max_arguments_per_debate": self.max_arguments_per_debate,
            "min_topics": self.min_topics,
            "max_sentences": self.max_sentences,
        }.items():
            if count < 1:
                raise ConfigError(f"Shape.{name} must be >= 1, got {count}")
        weights = self.premises_per_argument
        if not weights or any(w < 0 for w in weights) or sum(weights) <= 0:
            raise ConfigError("Shape.premises_per_argument needs non-negative weights, sum > 0")
        shares = [share for _, share in self.portals]
        if not shares or any(s < 0 for s in shares) or sum(shares) <= 0:
            raise ConfigError("Shape.portals needs (name, share) pairs with shares summing > 0")
        unknown = [name for name, _ in self.portals if name not in PORTAL_FORMATS]
        if unknown:
            raise ConfigError(f"Shape.portals: unknown portal(s) {unknown}; known: {PORTALS}")


class Claim(NamedTuple):
    text: str
    polarity: int
    cluster: str


class Plan:
    """Derived constants of one corpus, and the pure functions of ``(seed, topic, debate)``."""

    def __init__(self, n_arguments: int, seed: int, shape: Shape) -> None:
        self.seed = seed
        self.shape = shape
        weights = shape.premises_per_argument
        total = sum(weights)
        self.premise_count_cdf = [sum(weights[: i + 1]) / total for i in range(len(weights))]
        mean_premises = sum((i + 1) * w for i, w in enumerate(weights)) / total
        self.arguments_per_debate = max(1.0, shape.premises_per_claim / mean_premises)
        sigma = shape.debate_size_sigma
        self.debate_mu = math.log(self.arguments_per_debate) - sigma * sigma / 2.0
        self.expected_debates = max(1.0, n_arguments / self.arguments_per_debate)
        self.n_topics = max(
            shape.min_topics, round(self.expected_debates / shape.debates_per_topic)
        )
        portal_total = sum(share for _, share in shape.portals)
        acc = 0.0
        self.portal_cdf: list[tuple[float, str]] = []
        for name, share in shape.portals:
            acc += share / portal_total
            self.portal_cdf.append((acc, name))
        self.sentences_mu = math.log(shape.sentences_median)

    def topic(self, rank: int) -> Topic:
        """The topic at a popularity rank; rebuilt on each call (cheap), so nothing is kept."""
        shape = self.shape
        i, q, r = topic_content(rank, self.seed)
        domain, issue = issues()[i]
        qualifier = DOMAINS[domain].qualifiers[q] if q >= 0 else None
        region = REGIONS[r] if r >= 0 else None
        debates = self.expected_debates * zipf_share(rank, self.n_topics, shape.topic_zipf)
        premises = debates * shape.premises_per_claim * (1.0 - shape.reuse_rate)
        title = join_words(
            [issue[0][0], qualifier[0] if qualifier else "", region[0] if region else ""]
        )
        return Topic(
            rank=rank,
            domain=domain,
            issue=issue,
            qualifier=qualifier,
            region=region,
            title=title,
            key=f"{issue[0][0]}|{qualifier[0] if qualifier else ''}|{region[0] if region else ''}",
            n_claims=max(1, round(debates / shape.claim_cluster_mean)),
            n_premises=max(2, round(premises / shape.premise_cluster_mean / 2.0)),
            claim_offset=mix(self.seed, 21, rank),
            premise_offset=(mix(self.seed, 22, rank), mix(self.seed, 23, rank)),
        )

    def conclusion(self, topic: Topic, k: int) -> Claim:
        """The conclusion of the ``k``-th debate of a topic: a pure function, so a later debate
        can reuse it without anyone storing it."""
        stream = HashStream(mix(self.seed, 31, topic.rank, k))
        j = int(stream.random() * topic.n_claims)
        space = meaning_space(topic.domain, "claim")
        meaning = decode(
            space, (_BIG_PRIME * j + topic.claim_offset) % space.size, topic.domain, False
        )
        verbatim = stream.random() < self.shape.conclusion_verbatim
        text = render_claim(topic, meaning, None if verbatim else stream)
        cluster = cluster_id("c:", topic.key + "|" + meaning_key(meaning))
        return Claim(text, meaning.frame.polarity, cluster)

    def premise_meaning(self, topic: Topic, polarity: int, rank: int) -> Meaning:
        kind = "premise+" if polarity > 0 else "premise-"
        space = meaning_space(topic.domain, kind)
        offset = topic.premise_offset[0 if polarity > 0 else 1]
        return decode(space, (_BIG_PRIME * rank + offset) % space.size, topic.domain, True)

    def premise_cluster(self, topic: Topic, meaning: Meaning) -> str:
        return cluster_id("p:", topic.issue[0][0] + "|" + meaning_key(meaning))

    def n_sentences(self, rng: Uniform) -> int:
        shape = self.shape
        if rng.random() < shape.single_sentence_share:
            return 1
        n = round(math.exp(self.sentences_mu + shape.sentences_sigma * normal(rng)))
        return min(shape.max_sentences, max(2, n))

    def debate_size(self, rng: Uniform) -> int:
        shape = self.shape
        n = round(math.exp(self.debate_mu + shape.debate_size_sigma * normal(rng)))
        return min(shape.max_arguments_per_debate, max(1, n))

    def premise_count(self, rng: Uniform) -> int:
        u = rng.random()
        for i, bound in enumerate(self.premise_count_cdf):
            if u < bound:
                return i + 1
        return len(self.premise_count_cdf)

    def portal(self, rng: Uniform) -> str:
        u = rng.random()
        for bound, name in self.portal_cdf:
            if u < bound:
                return name
        return self.portal_cdf[-1][1]
