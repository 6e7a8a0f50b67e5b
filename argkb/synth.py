"""Synthetic args.me-style corpora shaped like debate portals, for tests and benchmarks at scale.

The real args.me corpus (about 387k arguments, ~1 GB of JSON) is not available here, so this
module writes corpora in its format with the structure that matters to argkb: conclusions that
recur across debates, conclusions reused verbatim as premises (graph structure for PageRank),
paraphrased premises (something for clustering to find), a pro/con mix and heavy-tailed text
lengths. Everything comes from a vocabulary built in code; no downloads, no model.

Public API
----------
:func:`generate`
    Yield ``n_arguments`` argument dicts in args.me format, deterministically by ``seed``.
:func:`write_json`, :func:`write_jsonl`
    Stream a corpus to a file as ``{"arguments": [...]}`` or as one argument per line;
    :func:`dump_json`, :func:`dump_jsonl` do the same to an open text stream.
:class:`Shape`
    The knobs of the corpus shape, with defaults taken from the papers (see below).

Output format
-------------
Each argument is ::

    {"id": "3c1f9a07-2019-04-18T00:00:05Z-00000-000",
     "conclusion": "Nuclear power should be banned",
     "premises": [{"text": "...", "stance": "PRO" | "CON", "annotations": []}],
     "context": {"sourceId": "3c1f9a07-2019-04-18T00:00:05Z",
                 "previousArgumentInSourceId": "", "acquisitionTime": "2019-04-18T00:00:05Z",
                 "discussionTitle": "...", "sourceTitle": "...", "sourceUrl": "...",
                 "nextArgumentInSourceId": "3c1f9a07-2019-04-18T00:00:05Z-00001-000"}}

One debate (``sourceId``) holds several arguments with the same conclusion; all premises of one
argument share its stance. Argument ids are unique within a corpus.

Ground truth (``truth=True``)
-----------------------------
Every text expresses one underlying proposition (a *meaning*: a frame such as "X reduces E" with
its slots filled). With ``truth=True`` each premise dict gets a ``"_cluster"`` field and each
argument a ``"_conclusion_cluster"`` field: ids of that meaning, ``"p:<hex>"`` for premise meanings
and ``"c:<hex>"`` for claim meanings. Two texts with the same id are paraphrases of each other
(synonym swaps, another template, a fronted clause, an added hedge); a conclusion reused as a
premise keeps its ``"c:"`` id, so the ids cover claims and premises alike. For a long post the id
is the meaning of its core sentence; the other sentences elaborate on the same meaning (examples,
statistics) or are debate talk ("My opponent has not addressed this point."). Ids depend on the
meaning only, so a premise meaning in two topics (same issue, another qualifier) has one id, and
one exact text never carries two ids. The fields start with ``_`` so a loader can drop them;
leave ``truth`` off for corpora that mimic args.me exactly.

How the shape maps to published statistics
------------------------------------------
Dumani, GvD 2019 (``papers/001``, sec. 4-5) built its corpus from four debate portals, debate.org,
debatepedia.org, debatewise.org and idebate.org, where "the latter [debate.org] contains much more
debates as the other three together"; portal claims become conclusions and the answers premises,
giving "59,126 claims with 695,818 premises, so on average about 11.8 premises per claim".

* ``premises_per_claim = 11.8``: the mean number of premises of a debate (001). With
  ``premises_per_argument = (93, 8, 8, 1)``, the distribution of premises per argument in the
  Webis-ArgRank-17 benchmark (Wachsmuth, Stein & Ajjour, EACL 2017, ``papers/004``, Fig. 3b:
  93 arguments with 1 premise, 8 with 2, 8 with 3, 1 with 4; mean 1.245), a debate has about
  9.5 arguments on average, drawn from a log-normal (``debate_size_sigma``) so that most debates
  are small and a few are long.
* ``portals``: debate.org 0.75 and the three curated portals 0.25 together, following 001's remark
  that debate.org has more debates than the other three combined.
* ``claim_cluster_mean = 6.1``: the same claim recurs in several debates, verbatim or
  paraphrased. The corpus of 001, clustered in Dumani, Neumann & Schenkel, ECIR 2020
  (``papers/003``, sec. 6.1), has 63,250 claims in 10,611 claim clusters, "average cluster size is
  about 6.1, the median is 5"; here each topic has about (its expected debates / 6.1) claim
  meanings, and ``conclusion_verbatim`` of the debates use the canonical wording (so exact
  repeats exist, not only paraphrases).
* ``reuse_rate``, ``reuse_zipf``: a premise slot is, with probability ``reuse_rate``, the verbatim
  conclusion of an earlier debate of the same topic, chosen by a Zipf law over the topic's debates
  in order of appearance (the first debates of a topic are the most reused). 004 (sec. 3, Fig. 2)
  builds its argument graph exactly from such reuse of conclusions as premises, matched by exact
  text (sec. 5.1), and its Fig. 3a shows the skew: of 31,080 units 12,892 are never used as a
  premise, 17,093 once, 694 twice, ... 95 five to nine times and 11 between 10 and 122 times.
  The reused conclusion's stance follows the polarity of the two claims.
* ``premise_cluster_mean``, ``premise_zipf``: premises are drawn from a topic's premise meanings
  by a Zipf law, so a few reasons ("it is too expensive for taxpayers") are given in many debates
  and most only once or twice; 001 (sec. 3.1) plans to "count how frequently a premise cluster from
  this claim supports similar claims in a large corpus", and 003 (Fig. 1) draws the same premise
  cluster supporting different claims. ``paraphrase_rate`` of the occurrences are reworded.
* ``pro_share = 0.53``: 001 reports no pro/con split ("many claims of our dataset do not have a
  stance anyway"); 0.53 is the share of PRO among the 1,610 args.me premises judged in
  Webis-ArgQuality-20 (852 pro, 758 con; ``../shared/data/webis-argquality-20``).
* ``single_sentence_share``, ``sentences_median``, ``sentences_sigma``, ``max_sentences``: text
  lengths from one sentence (curated portals, argument-map units) to long debate.org posts. In the
  Webis-ArgQuality-20 sample of args.me premises (capped at 300 words) the number of sentences has
  quantiles 10%: 1, 25%: 2, 50%: 6, 75%: 11, 90%: 15; uncapped debate.org posts run much longer,
  hence 20% single sentences and otherwise a log-normal (median 8, sigma 0.9) cut at
  ``max_sentences``. Measured on a generated corpus: 10%: 1, 25%: 2, 50%: 6, 75%: 12, 90%: 22,
  99%: 58 sentences; about 1.4 KB of JSON per argument. The real args.me file has about
  2.6 KB per argument (~1 GB for 387k); ``Shape(sentences_median=14, sentences_sigma=1.2,
  max_sentences=300)`` comes close (about 2.4 KB) when benchmarks need realistic byte volumes.
* ``debates_per_topic``, ``topic_zipf``: about 25 debates per topic on average, topic popularity
  Zipf-distributed (a few topics such as the death penalty are debated far more often). Neither
  number is in the papers; they give a few hundred topics at 100k arguments (422) and thousands
  at 1M (about 4,200). Topic names combine 69 issues, four qualifiers per domain and 15 regions
  (5,520 distinct topics); beyond that topic contents repeat, which merges their claim meanings.
  A topic has about 75 claim meanings and 650-900 premise meanings per polarity; the few topics
  debated more than about 75 * 6.1 times reuse claim meanings, so their claim clusters grow
  beyond 6.1 debates (at 100k arguments: mean 6.1, median 6, largest 19).

Memory and determinism
----------------------
:func:`generate` streams: its state is one counter per topic (``n_topics`` ints, about
``n_arguments / 240``) and one debate's arguments at a time. Everything else (a topic's
vocabulary, the conclusion of the ``k``-th debate of a topic, which an argument may reuse much
later) is a pure function of the seed and small integers, recomputed when needed. Peak memory
traced by :mod:`tracemalloc` while consuming :func:`generate`: 0.09 MiB at 100k arguments, 0.11 MiB
at 400k (:func:`write_json` adds its 1 MiB write buffer); 1M arguments run in about 22 MB RSS.

The same seed gives byte-identical output; randomness comes from :class:`random.Random` (only
``random()`` is used, whose sequence Python keeps stable across versions) and a SplitMix64 hash,
never from ``hash()``, so ``PYTHONHASHSEED`` does not matter. (Log-normal draws use ``math.exp``
and ``math.log``; a platform whose libm rounds differently in the last bit could, in rare cases,
round a length differently.)
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple, Protocol, TextIO

from argkb.errors import ConfigError

__all__ = ["Shape", "dump_json", "dump_jsonl", "generate", "write_json", "write_jsonl"]

Argument = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Shape:
    """Knobs of the corpus shape; the defaults follow the papers (see the module docstring)."""

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
        unknown = [name for name, _ in self.portals if name not in _PORTAL_FORMATS]
        if unknown:
            raise ConfigError(f"Shape.portals: unknown portal(s) {unknown}; known: {_PORTALS}")


# --------------------------------------------------------------------------------------------
# Vocabulary. Each tuple of strings lists surface forms of one meaning, canonical form first.
# No surface form may appear under two meanings (a unit test checks this), so one exact text
# never belongs to two ground-truth clusters.
# --------------------------------------------------------------------------------------------

Forms = tuple[str, ...]
NounForms = tuple[tuple[str, bool], ...]  # (text, is_plural)


class _Domain(NamedTuple):
    goods: tuple[Forms, ...]
    bads: tuple[Forms, ...]
    groups: tuple[Forms, ...]
    qualifiers: tuple[Forms, ...]
    related: tuple[str, ...]


_DOMAINS: dict[str, _Domain] = {
    "energy": _Domain(
        goods=(
            ("energy security", "security of supply", "energy independence"),
            ("affordable electricity", "cheap power", "low energy bills"),
        ),
        bads=(
            ("carbon emissions", "CO2 emissions", "greenhouse gas emissions"),
            ("air pollution", "smog", "dirty air"),
            ("blackouts", "power cuts", "power outages"),
        ),
        groups=(
            ("rural communities", "people in rural areas", "countryside residents"),
            ("consumers", "customers", "energy users"),
            ("energy workers", "workers in the energy sector", "power plant workers"),
        ),
        qualifiers=(
            ("for electricity generation", "for generating electricity"),
            ("in new buildings", "in newly built homes"),
            ("for heating", "for home heating"),
            ("for transport", "in the transport sector"),
        ),
        related=("environment", "economy"),
    ),
    "environment": _Domain(
        goods=(
            ("biodiversity", "the variety of species", "wildlife diversity"),
            ("soil quality", "soil health", "fertile soil"),
        ),
        bads=(
            ("plastic waste", "plastic pollution", "plastic litter"),
            ("deforestation", "the loss of forests", "forest destruction"),
            ("water pollution", "polluted water", "contaminated water"),
        ),
        groups=(
            ("farmers", "growers", "agricultural workers"),
            ("coastal communities", "people living on the coast", "coastal towns"),
        ),
        qualifiers=(
            ("in cities", "in urban areas"),
            ("in national parks", "in protected areas"),
            ("on farms", "in agriculture"),
            ("in the oceans", "at sea"),
        ),
        related=("health", "energy"),
    ),
    "justice": _Domain(
        goods=(
            ("public safety", "the safety of the public", "safety on our streets"),
            ("civil liberties", "civil rights", "individual freedoms"),
            ("trust in the courts", "confidence in the justice system", "faith in the courts"),
        ),
        bads=(
            ("crime", "criminal activity", "crime rates"),
            ("wrongful convictions", "miscarriages of justice", "convictions of innocent people"),
            ("gun violence", "shootings", "gun deaths"),
        ),
        groups=(
            ("victims of crime", "crime victims", "people harmed by crime"),
            ("prisoners", "inmates", "convicts"),
            ("police officers", "law enforcement officers", "the police"),
            ("innocent people", "innocent citizens", "the innocent"),
        ),
        qualifiers=(
            ("for violent crimes", "for violent offences"),
            ("for juveniles", "for young offenders"),
            ("at the federal level", "nationwide"),
            ("for drug offences", "for drug crimes"),
        ),
        related=("society", "politics"),
    ),
    "health": _Domain(
        goods=(
            ("public health", "the health of the population", "population health"),
            ("life expectancy", "lifespans", "how long people live"),
            ("mental health", "psychological well-being", "mental well-being"),
        ),
        bads=(
            ("obesity", "excess weight", "being overweight"),
            ("health care costs", "medical costs", "the cost of health care"),
            ("addiction", "drug dependence", "substance abuse"),
        ),
        groups=(
            ("patients", "sick people", "people who are ill"),
            ("doctors", "physicians", "medical professionals"),
            ("children", "kids", "minors"),
        ),
        qualifiers=(
            ("for minors", "for under-18s"),
            ("in public hospitals", "in state hospitals"),
            ("for pregnant women", "for expectant mothers"),
            ("in care homes", "in nursing homes"),
        ),
        related=("economy", "society"),
    ),
    "education": _Domain(
        goods=(
            ("academic performance", "school results", "academic achievement"),
            ("equal opportunities", "equality of opportunity", "a level playing field"),
            ("school discipline", "discipline in class", "good behaviour in class"),
        ),
        bads=(
            ("bullying", "school bullying", "harassment at school"),
            ("stress", "anxiety", "pressure on young minds"),
            ("dropout rates", "school dropouts", "early school leaving"),
        ),
        groups=(
            ("students", "pupils", "learners"),
            ("teachers", "educators", "school teachers"),
            ("parents", "mothers and fathers", "families with children"),
        ),
        qualifiers=(
            ("in public schools", "in state schools"),
            ("at universities", "in higher education"),
            ("in primary schools", "in elementary schools"),
            ("in high schools", "in secondary schools"),
        ),
        related=("society", "technology"),
    ),
    "economy": _Domain(
        goods=(
            ("economic growth", "growth of the economy", "GDP growth"),
            ("living standards", "the standard of living", "prosperity"),
        ),
        bads=(
            ("unemployment", "joblessness", "job losses"),
            ("inequality", "income inequality", "the gap between rich and poor"),
            ("poverty", "destitution", "hardship"),
            ("inflation", "rising prices", "price increases"),
            ("public debt", "government debt", "the national debt"),
        ),
        groups=(
            ("employers", "business owners", "companies"),
            ("low-wage workers", "people on low wages", "the working poor"),
            ("investors", "shareholders", "savers"),
        ),
        qualifiers=(
            ("in the service sector", "in the service industry"),
            ("in rich countries", "in wealthy nations"),
            ("at the state level", "in individual states"),
            ("for large corporations", "for big companies"),
        ),
        related=("society", "politics"),
    ),
    "technology": _Domain(
        goods=(
            ("innovation", "technological progress", "new inventions"),
            ("productivity", "efficiency", "output per worker"),
            ("privacy", "personal privacy", "data privacy"),
        ),
        bads=(
            ("misinformation", "fake news", "false information"),
            ("cybercrime", "online crime", "hacking"),
            ("road accidents", "traffic accidents", "car crashes"),
        ),
        groups=(
            ("internet users", "online users", "web users"),
            ("teenagers", "adolescents", "teens"),
            ("drivers", "motorists", "road users"),
        ),
        qualifiers=(
            ("for children", "for young children"),
            ("in schools", "in classrooms"),
            ("in the workplace", "at work"),
            ("in the military", "in the armed forces"),
        ),
        related=("economy", "education"),
    ),
    "society": _Domain(
        goods=(
            ("animal welfare", "the well-being of animals", "animal wellbeing"),
            ("social cohesion", "community spirit", "social unity"),
            ("equality", "fairness", "equal treatment"),
        ),
        bads=(
            ("discrimination", "prejudice", "unequal treatment"),
            ("animal suffering", "cruelty to animals", "animal cruelty"),
            ("loneliness", "social isolation", "isolation"),
        ),
        groups=(
            ("women", "girls and women", "female citizens"),
            ("religious people", "believers", "people of faith"),
            ("animals", "wildlife", "animals in captivity"),
        ),
        qualifiers=(
            ("in sports", "in professional sports"),
            ("for entertainment", "for fun"),
            ("in public places", "in public spaces"),
            ("for profit", "for commercial purposes"),
        ),
        related=("justice", "health"),
    ),
    "politics": _Domain(
        goods=(
            ("voter turnout", "electoral participation", "turnout at elections"),
            ("accountability", "government accountability", "political accountability"),
            ("national security", "the security of the nation", "homeland security"),
        ),
        bads=(
            ("corruption", "bribery", "graft"),
            ("polarisation", "political division", "partisan division"),
            ("war", "armed conflict", "military conflict"),
        ),
        groups=(
            ("voters", "the electorate", "citizens who vote"),
            ("politicians", "elected officials", "lawmakers"),
            ("soldiers", "service members", "troops"),
        ),
        qualifiers=(
            ("in national elections", "in general elections"),
            ("in local elections", "in municipal elections"),
            ("in the European Union", "in the EU"),
            ("for members of parliament", "for MPs"),
        ),
        related=("economy", "justice"),
    ),
}

# Groups every domain can use.
_COMMON_GROUPS: tuple[Forms, ...] = (
    ("taxpayers", "tax payers", "people who pay taxes"),
    ("poor families", "low-income households", "families on low incomes"),
    ("young people", "younger people", "people under 25"),
    ("future generations", "generations to come", "our grandchildren"),
    ("ordinary citizens", "ordinary people", "average citizens"),
    ("small businesses", "small firms", "small companies"),
    ("the elderly", "elderly people", "senior citizens"),
    ("minorities", "minority groups", "ethnic minorities"),
    ("workers", "employees", "working people"),
)

# The issues debated, "domain: form | form | form"; a trailing "+" marks a plural form, for
# agreement ("wind farms reduce ..."). Parsed once, lazily, by _issues().
_ISSUE_TABLE: tuple[str, ...] = (
    "energy: nuclear power | nuclear energy | atomic power",
    "energy: fracking | hydraulic fracturing | shale gas drilling",
    "energy: wind farms+ | wind parks+ | onshore wind turbines+",
    "energy: coal power | coal-fired electricity | coal energy",
    "energy: solar subsidies+ | subsidies for solar panels+ | solar power subsidies+",
    "energy: electric cars+ | electric vehicles+ | battery-powered cars+",
    "energy: fossil fuels+ | carbon-based fuels+ | oil, gas and coal+",
    "energy: a carbon tax | carbon pricing | a tax on carbon",
    "environment: plastic bags+ | single-use plastic bags+ | disposable bags+",
    "environment: bottled water | water in plastic bottles | packaged water",
    "environment: GMO crops+ | genetically modified crops+ | GM crops+",
    "environment: pesticides+ | chemical pesticides+ | crop sprays+",
    "environment: meat consumption | eating meat | meat eating",
    "environment: trophy hunting | big-game hunting | hunting for trophies",
    "justice: the death penalty | capital punishment | the execution of criminals",
    "justice: mass surveillance | government surveillance | bulk data collection",
    "justice: concealed handguns+ | concealed carry of guns | hidden firearms+",
    "justice: recreational marijuana | recreational cannabis | marijuana for recreational use",
    "justice: private prisons+ | for-profit prisons+ | privately run prisons+",
    "justice: plea bargaining | plea deals+ | negotiated guilty pleas+",
    "justice: police body cameras+ | body-worn cameras for police+ | bodycams+",
    "health: mandatory vaccination | compulsory vaccination | vaccine mandates+",
    "health: euthanasia | assisted suicide | assisted dying",
    "health: universal health care | single-payer health care | free public health care",
    "health: a sugar tax | a tax on sugary drinks | a soda tax",
    "health: vegetarianism | a vegetarian diet | meat-free eating",
    "health: e-cigarettes+ | electronic cigarettes+ | vaping",
    "health: opt-out organ donation | presumed consent to donation | an opt-out donor system",
    "health: alternative medicine | complementary medicine | unconventional treatments+",
    "education: school uniforms+ | mandatory school uniforms+ | uniform policies+",
    "education: homeschooling | home education | schooling at home",
    "education: standardized testing | standardized tests+ | high-stakes exams+",
    "education: free college tuition | tuition-free university | free higher education",
    "education: single-sex schools+ | gender-segregated schools+ | single-gender schools+",
    "education: homework | home assignments+ | after-school assignments+",
    "education: charter schools+ | independent public schools+ | publicly funded private schools+",
    "education: year-round schooling | year-round school calendars+ | shorter summer holidays+",
    "economy: universal basic income | a basic income | an unconditional basic income",
    "economy: a higher minimum wage | raising the minimum wage | minimum wage increases+",
    "economy: free trade | trade liberalisation | open markets+",
    "economy: a wealth tax | taxes on the rich+ | a tax on large fortunes",
    "economy: rent control | rent caps+ | limits on rent increases+",
    "economy: cryptocurrency | cryptocurrencies+ | digital currencies+",
    "economy: outsourcing | offshoring | moving jobs abroad",
    "economy: tipping | gratuities+ | service tips+",
    "technology: social media | social networks+ | online platforms+",
    "technology: artificial intelligence | AI systems+ | machine learning systems+",
    "technology: self-driving cars+ | autonomous vehicles+ | driverless cars+",
    "technology: video games+ | computer games+ | gaming",
    "technology: genetic engineering | gene editing | genetic modification",
    "technology: space exploration | space travel | crewed space missions+",
    "technology: online voting | internet voting | e-voting",
    "technology: smartphones in class+ | mobile phones in class+ | phones in lessons+",
    "society: animal testing | animal experiments+ | testing on animals",
    "society: zoos+ | zoological parks+ | animal parks+",
    "society: gambling | betting | casino gambling",
    "society: child beauty pageants+ | beauty contests for children+ | pageants for kids+",
    "society: affirmative action | positive discrimination | diversity quotas+",
    "society: same-sex marriage | gay marriage | marriage equality",
    "society: large-scale immigration | mass immigration | high immigration",
    "society: bullfighting | bull fights+ | the bullfighting tradition",
    "politics: compulsory voting | mandatory voting | obligatory voting",
    "politics: term limits+ | limits on terms in office+ | term restrictions+",
    "politics: the electoral college | the electoral system | indirect presidential elections+",
    "politics: a voting age of 16 | votes at 16+ | voting at sixteen",
    "politics: the monarchy | the royal family | a hereditary head of state",
    "politics: foreign aid | development aid | overseas aid",
    "politics: military drones+ | armed drones+ | drone warfare",
    "politics: nuclear weapons+ | a nuclear arsenal | atomic weapons+",
)

_REGIONS: tuple[Forms, ...] = (
    ("in the United States", "in the US", "in America"),
    ("in the United Kingdom", "in the UK", "in Britain"),
    ("in Germany",),
    ("in France",),
    ("in India",),
    ("in Canada",),
    ("in Australia",),
    ("in Japan",),
    ("in Brazil",),
    ("in South Africa",),
    ("in Europe", "across Europe"),
    ("in developing countries", "in the developing world", "in poorer countries"),
    ("in China",),
    ("in Mexico",),
    ("in Nigeria",),
)

_TIMES: tuple[Forms, ...] = (
    ("immediately", "right away", "without delay"),
    ("by 2030", "before 2030", "by the end of this decade"),
    ("gradually", "step by step", "over several years"),
)

# Adjuncts of premise meanings about a group; part of the meaning.
_ADJUNCTS: tuple[Forms, ...] = (
    ("in the long run", "in the long term", "over time"),
    ("in practice", "in reality", "in real life"),
    ("in most cases", "in the majority of cases", "most of the time"),
)


class _Frame(NamedTuple):
    name: str
    polarity: int  # +1: for the issue, -1: against it
    slot: str  # "good" | "bad" | "group" | "" (none)
    templates: tuple[str, ...]
    timed: bool = False  # policy claims may carry a time adjunct ("immediately")


# Templates use {X} (the issue), {E} (an effect), {G} (a group) and agreement with X:
# {s} (improve{s}), {is}, {has}, {does}, {its}.
_PREMISE_FRAMES: tuple[_Frame, ...] = (
    _Frame("improve", +1, "good", (
        "{X} improve{s} {E}", "{X} lead{s} to better {E}", "{X} {has} a positive effect on {E}",
        "{X} boost{s} {E}", "{X} make{s} {E} better",
    )),
    _Frame("reduce", +1, "bad", (
        "{X} reduce{s} {E}", "{X} lower{s} {E}", "{X} lead{s} to less {E}", "{X} cut{s} {E}",
        "{X} help{s} to reduce {E}",
    )),
    _Frame("benefit", +1, "group", (
        "{X} benefit{s} {G}", "{X} {is} good for {G}", "{X} help{s} {G}", "{G} benefit from {X}",
    )),
    _Frame("protect_rights", +1, "group", (
        "{X} protect{s} the rights of {G}", "{X} safeguard{s} the rights of {G}",
        "the rights of {G} are protected by {X}",
    )),
    _Frame("create_jobs", +1, "group", (
        "{X} create{s} jobs for {G}", "{X} provide{s} employment for {G}",
        "{X} bring{s} new jobs to {G}",
    )),
    _Frame("freedom", +1, "group", (
        "{X} give{s} {G} more freedom", "{X} expand{s} the freedom of {G}",
        "{G} gain more freedom through {X}",
    )),
    _Frame("save_money", +1, "group", (
        "{X} save{s} money for {G}", "{X} lower{s} the costs for {G}",
        "{G} save money thanks to {X}",
    )),
    _Frame("harm", -1, "good", (
        "{X} harm{s} {E}", "{X} damage{s} {E}", "{X} {has} a negative effect on {E}",
        "{X} undermine{s} {E}", "{X} make{s} {E} worse",
    )),
    _Frame("increase", -1, "bad", (
        "{X} increase{s} {E}", "{X} lead{s} to more {E}", "{X} drive{s} up {E}",
        "{X} cause{s} more {E}", "{X} fuel{s} {E}",
    )),
    _Frame("no_evidence", -1, "good", (
        "there is no evidence that {X} improve{s} {E}",
        "no study has shown that {X} improve{s} {E}", "nothing proves that {X} improve{s} {E}",
    )),
    _Frame("too_expensive", -1, "group", (
        "{X} {is} too expensive for {G}", "{X} cost{s} {G} too much", "{G} cannot afford {X}",
        "{X} {is} unaffordable for {G}",
    )),
    _Frame("violate_rights", -1, "group", (
        "{X} violate{s} the rights of {G}", "{X} infringe{s} on the rights of {G}",
        "the rights of {G} are violated by {X}",
    )),
    _Frame("unfair", -1, "group", (
        "{X} {is} unfair to {G}", "{X} treat{s} {G} unfairly", "{X} discriminate{s} against {G}",
    )),
    _Frame("destroy_jobs", -1, "group", (
        "{X} destroy{s} jobs for {G}", "{X} cost{s} {G} their jobs",
        "{G} lose their jobs because of {X}",
    )),
    _Frame("burden", -1, "group", (
        "{X} put{s} a heavy burden on {G}", "{X} place{s} a great burden on {G}",
        "{X} {is} a heavy burden for {G}",
    )),
)  # fmt: skip

_CLAIM_FRAMES: tuple[_Frame, ...] = (
    _Frame("legal", +1, "", (
        "{X} should be legal", "{X} should be allowed", "{X} ought to be permitted",
        "we should legalise {X}",
    ), timed=True),
    _Frame("expand", +1, "", (
        "we should expand {X}", "{X} should be expanded", "governments should expand {X}",
    ), timed=True),
    _Frame("fund", +1, "", (
        "governments should fund {X}", "{X} should receive public funding",
        "public money should be spent on {X}", "the state should pay for {X}",
    ), timed=True),
    _Frame("net_good", +1, "", (
        "{X} {does} more good than harm", "the benefits of {X} outweigh {its} costs",
        "{X} {is} beneficial overall", "overall, {X} {is} a good thing",
    )),
    _Frame("good_for", +1, "good", (
        "{X} {is} good for {E}", "{X} {is} beneficial for {E}", "{X} promote{s} {E}",
    )),
    _Frame("mandatory", +1, "group", (
        "{X} should be mandatory for {G}", "{X} should be compulsory for {G}",
        "{G} should be required to accept {X}",
    )),
    _Frame("ban", -1, "", (
        "{X} should be banned", "{X} should be prohibited", "we should ban {X}",
        "{X} must be outlawed",
    ), timed=True),
    _Frame("abandon", -1, "", (
        "we should abandon {X}", "{X} should be abolished", "it is time to get rid of {X}",
        "{X} should be phased out",
    ), timed=True),
    _Frame("defund", -1, "", (
        "governments should stop funding {X}", "{X} should not receive public money",
        "taxpayers should not pay for {X}",
    ), timed=True),
    _Frame("net_bad", -1, "", (
        "{X} {does} more harm than good", "the costs of {X} outweigh {its} benefits",
        "{X} {is} harmful overall", "overall, {X} {is} a bad thing",
    )),
    _Frame("bad_for", -1, "good", (
        "{X} {is} bad for {E}", "{X} {is} harmful to {E}", "{X} threaten{s} {E}",
    )),
    _Frame("optional", -1, "group", (
        "{X} should not be forced on {G}", "{X} should be optional for {G}",
        "{G} should be free to refuse {X}",
    )),
    _Frame("solution", +1, "bad", (
        "{X} {is} the solution to {E}", "{X} can solve the problem of {E}",
        "{X} {is} the answer to {E}",
    )),
    _Frame("to_blame", -1, "bad", (
        "{X} {is} to blame for {E}", "{X} {is} responsible for {E}", "{X} {is} behind {E}",
    )),
    _Frame("promote", +1, "", (
        "governments should promote {X}", "{X} should be encouraged", "we should encourage {X}",
    ), timed=True),
    _Frame("regulate", -1, "", (
        "{X} should be strictly regulated", "{X} needs stricter regulation",
        "governments should tightly regulate {X}",
    ), timed=True),
)  # fmt: skip

# Hedges change the wording, not the meaning.
_HEDGES_THAT = (
    "I believe that", "I think that", "it is clear that", "it seems that",
    "evidence suggests that", "there is no doubt that", "we all know that", "it is obvious that",
    "I would argue that", "the fact is that",
)  # fmt: skip
_HEDGES_COMMA = (
    "arguably,", "clearly,", "frankly,", "honestly,", "in my opinion,", "in my view,",
    "without a doubt,", "of course,", "simply put,", "quite simply,",
)  # fmt: skip
_HEDGES_AFTER = (", in my opinion", ", I believe", ", as far as I can tell", ", I would say")

_PLACES = (
    "Texas", "California", "New York", "Ohio", "Florida", "Sweden", "Norway", "Denmark", "Germany",
    "France", "Spain", "Italy", "Poland", "Japan", "South Korea", "Singapore", "Brazil", "Chile",
    "Mexico", "Canada", "Australia", "New Zealand", "India", "Kenya", "Nigeria", "Egypt",
    "Scotland", "Ireland", "the Netherlands", "Switzerland", "Portugal", "Finland",
)  # fmt: skip
_ORGS = (
    "the World Health Organization", "the OECD", "the World Bank", "Harvard University",
    "Oxford University", "the Pew Research Center", "the National Academy of Sciences",
    "a government commission", "the United Nations", "an independent think tank",
    "the European Commission", "Stanford University", "the RAND Corporation",
    "a parliamentary committee", "the Brookings Institution", "a team of economists",
)  # fmt: skip

# Sentences that elaborate on a premise meaning; {E}/{G} are the meaning's own slots where it
# has them, else context words of the topic.
_ELABORATIONS = (
    "For example, {pct} percent of {G} in {place} reported a change after {X} {was} introduced "
    "in {year}.",
    "A {year} study by {org} looked at the effect of {X} on {E} in {place}.",
    "Between {year} and {year2}, {E} in {place} changed by {pct} percent.",
    "Look at {place}, where {X} {has} been debated since {year}.",
    "According to {org}, {pct} percent of {G} agree with this.",
    "This matters because all of us are affected by {E}.",
    "{G} in {place} know this from their own experience.",
    "In {year}, {org} published a report on {X} and {E}.",
    "We cannot ignore what happened in {place} in {year}.",
    "The numbers from {place} speak for themselves: {pct} percent.",
    "Nobody has explained why {place} saw {pct} percent more complaints from {G}.",
    "My source is a {year} paper by {org}.",
    "Even {org} admitted in {year} that there is a problem with {E}.",
    "If you ask {G}, most of them will tell you the same.",
    "The debate about {X} in {place} shows exactly this.",
    "Surveys from {year} found that {pct} percent of {G} care about {E}.",
)
_DEBATE_TALK = (
    "My opponent has not addressed this point.",
    "Thank you for accepting this debate.",
    "I look forward to my opponent's response.",
    "Let me explain why.",
    "The burden of proof is on my opponent.",
    "I will now turn to my opponent's rebuttals.",
    "This is simply common sense.",
    "Extend all of my arguments.",
    "Sources are listed in the comments.",
    "That is all for this round.",
    "My opponent dropped this argument in the last round.",
    "I would like to clarify my position.",
    "Please read my sources before voting.",
    "This point still stands.",
    "Vote {side}!",
    "I urge the voters to vote {side}.",
    "Thanks again for a great debate.",
    "Consider the following.",
)
_OPENERS = (
    "Thank you for the quick response.",
    "I accept this debate.",
    "First, some definitions.",
    "Let me start with my main argument.",
    "Good luck to my opponent.",
)

_PORTAL_FORMATS: dict[str, tuple[str, str]] = {
    # portal -> (sourceTitle template, sourceUrl template); {title}, {slug}, {Slug}, {n}, {domain}
    "debate.org": ("Debate Argument: {title} | Debate.org", "https://www.debate.org/debates/{Slug}/{n}/"),
    "debatepedia.org": ("Debate: {title} - Debatepedia", "http://www.debatepedia.org/en/index.php/Debate:_{Slug_}"),
    "debatewise.org": ("{title} - Debatewise", "https://debatewise.org/debates/{num}-{slug}/"),
    "idebate.org": ("{title} | idebate.org", "https://idebate.org/debatabase/{domain}/{slug}"),
}  # fmt: skip
_PORTALS = tuple(_PORTAL_FORMATS)

_AGREE_SINGULAR = {"s": "s", "is": "is", "has": "has", "does": "does", "its": "its", "was": "was"}
_AGREE_PLURAL = {"s": "", "is": "are", "has": "have", "does": "do", "its": "their", "was": "were"}

_M64 = (1 << 64) - 1
_BIG_PRIME = 1_000_003  # coprime with every space size here: a bijection j -> (P*j + b) mod S
_CRAWL_START = 1555545600  # 2019-04-18T00:00:00Z, the args.me crawl
_NON_ALNUM = re.compile(r"[^A-Za-z0-9]+")


# --------------------------------------------------------------------------------------------
# Deterministic randomness
# --------------------------------------------------------------------------------------------


class _Uniform(Protocol):
    def random(self) -> float: ...


def _splitmix(x: int) -> int:
    z = (x + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def _mix(*parts: int) -> int:
    """A 64-bit hash of small integers (SplitMix64 chained); the key of every pure draw."""
    h = 0x243F6A8885A308D3
    for part in parts:
        h = _splitmix(h ^ (part & _M64))
    return h


class _HashStream:
    """A tiny SplitMix64 stream: the draws of a pure function of ``(seed, ...)``."""

    __slots__ = ("_state",)

    def __init__(self, key: int) -> None:
        self._state = key

    def random(self) -> float:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _M64
        return (_splitmix(self._state) >> 11) * (1.0 / 9007199254740992.0)


def _pick(forms: Sequence[Any], rng: _Uniform | None) -> Any:
    """The canonical (first) form without ``rng``, else a uniform one."""
    if rng is None:
        return forms[0]
    return forms[int(rng.random() * len(forms))]


def _zipf_cdf(x: float, s: float) -> float:
    return math.log(x) if abs(s - 1.0) < 1e-12 else x ** (1.0 - s) / (1.0 - s)


def _zipf_index(u: float, n: int, s: float) -> int:
    """Index ``0 .. n-1`` with P(i) proportional to the integral of ``x**-s`` over [i+1, i+2).

    The continuous power law sampled by inversion: O(1) time and no table, so a Zipf choice over
    millions of items needs no memory. :func:`_zipf_share` gives the exact probabilities.
    """
    if n <= 1:
        return 0
    if abs(s - 1.0) < 1e-12:
        x = (n + 1.0) ** u
    else:
        a = 1.0 - s
        x = (1.0 + u * ((n + 1.0) ** a - 1.0)) ** (1.0 / a)
    i = int(x) - 1
    return i if i < n else n - 1


def _zipf_share(i: int, n: int, s: float) -> float:
    total = _zipf_cdf(n + 1.0, s) - _zipf_cdf(1.0, s)
    return (_zipf_cdf(i + 2.0, s) - _zipf_cdf(i + 1.0, s)) / total


def _normal(rng: _Uniform) -> float:
    """A standard normal draw by Box-Muller from two ``random()`` calls."""
    u1 = rng.random()
    u2 = rng.random()
    return math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2.0 * math.pi * u2)


@cache
def _issues() -> tuple[tuple[str, NounForms], ...]:
    """The issue table as ``(domain, ((form, is_plural), ...))``."""
    issues = []
    for row in _ISSUE_TABLE:
        domain, forms = row.split(": ", 1)
        parsed = tuple((f.rstrip("+"), f.endswith("+")) for f in forms.split(" | "))
        issues.append((domain, parsed))
    return tuple(issues)


def _cluster_id(prefix: str, key: str) -> str:
    return prefix + hashlib.blake2b(key.encode("utf-8"), digest_size=6).hexdigest()


# --------------------------------------------------------------------------------------------
# Topics and meanings (pure functions of the seed and small integers)
# --------------------------------------------------------------------------------------------


class _Meaning(NamedTuple):
    frame: _Frame
    effect: Forms | None
    group: Forms | None
    adjunct: Forms | None  # time adjunct of a claim, or adjunct of a group premise


class _Space(NamedTuple):
    """An enumerable set of meanings: ``(frame, number of meanings with that frame)``."""

    parts: tuple[tuple[_Frame, int], ...]
    size: int


@cache
def _vocabulary(
    domain: str, premise: bool = True
) -> tuple[tuple[Forms, ...], tuple[Forms, ...], tuple[Forms, ...]]:
    """Goods, bads and groups a topic of ``domain`` talks about (its own and related domains).

    Claims name only the domain's own groups ("... should be mandatory for students"), which
    keeps them plausible; premises and elaborations use all.
    """
    own = _DOMAINS[domain]
    parts = [own, *(_DOMAINS[name] for name in own.related)]
    goods = tuple(g for d in parts for g in d.goods)
    bads = tuple(b for d in parts for b in d.bads)
    if not premise:
        return goods, bads, own.groups
    groups = (*own.groups, *_COMMON_GROUPS, *(g for d in parts[1:] for g in d.groups))
    return goods, bads, groups


def _slot_count(frame: _Frame, domain: str, premise: bool) -> int:
    goods, bads, groups = _vocabulary(domain, premise)
    if frame.slot == "good":
        return len(goods) * ((1 + len(groups)) if premise else 1)
    if frame.slot == "bad":
        return len(bads) * ((1 + len(groups)) if premise else 1)
    if frame.slot == "group":
        return len(groups) * ((1 + len(_ADJUNCTS)) if premise else 1)
    return 1 + len(_TIMES) if frame.timed else 1


@cache
def _space(domain: str, kind: str) -> _Space:
    """The meanings of one kind: ``"claim"``, ``"premise+"`` or ``"premise-"``."""
    if kind == "claim":
        frames = _CLAIM_FRAMES
    else:
        polarity = 1 if kind == "premise+" else -1
        frames = tuple(f for f in _PREMISE_FRAMES if f.polarity == polarity)
    parts = tuple((f, _slot_count(f, domain, kind != "claim")) for f in frames)
    return _Space(parts, sum(count for _, count in parts))


def _decode(space: _Space, index: int, domain: str, premise: bool) -> _Meaning:
    goods, bads, groups = _vocabulary(domain, premise)
    for frame, count in space.parts:
        if index >= count:
            index -= count
            continue
        if frame.slot in ("good", "bad"):
            effects = goods if frame.slot == "good" else bads
            if not premise:
                return _Meaning(frame, effects[index], None, None)
            e, g = divmod(index, 1 + len(groups))
            return _Meaning(frame, effects[e], groups[g - 1] if g else None, None)
        if frame.slot == "group":
            if not premise:
                return _Meaning(frame, None, groups[index], None)
            g, a = divmod(index, 1 + len(_ADJUNCTS))
            return _Meaning(frame, None, groups[g], _ADJUNCTS[a - 1] if a else None)
        return _Meaning(frame, None, None, _TIMES[index - 1] if index else None)
    raise AssertionError("meaning index out of range")  # pragma: no cover


def _meaning_key(meaning: _Meaning) -> str:
    parts = (meaning.effect, meaning.group, meaning.adjunct)
    return "|".join([meaning.frame.name, *(p[0] if p else "" for p in parts)])


class _Topic(NamedTuple):
    rank: int  # popularity rank, 0 = most debated
    domain: str
    issue: NounForms
    qualifier: Forms | None
    region: Forms | None
    title: str
    key: str  # identity of the topic's content, part of claim cluster keys
    n_claims: int  # claim meanings in use (expected debates / claim_cluster_mean)
    n_premises: int  # premise meanings in use per polarity
    claim_offset: int
    premise_offset: tuple[int, int]  # for polarity +1, -1


_N_QUALIFIERS = 4  # every domain has four
_N_COMBOS = len(_ISSUE_TABLE) * (1 + _N_QUALIFIERS) * (1 + len(_REGIONS))


def _topic_content(rank: int, seed: int) -> tuple[int, int, int]:
    """Issue, qualifier and region indices (-1: none) of the topic at a popularity rank.

    The most debated topics are plain issues ("nuclear power"), then issues with a qualifier,
    then with a region, then with both; issues are permuted by the seed. Beyond ``_N_COMBOS``
    topics, contents repeat.
    """
    n_issues = len(_ISSUE_TABLE)
    c = rank % _N_COMBOS
    shift = _mix(seed, 11) % n_issues
    if c < n_issues:
        q, r, i = -1, -1, c
    elif c < n_issues * (1 + _N_QUALIFIERS):
        c -= n_issues
        i, q, r = c % n_issues, c // n_issues, -1
    elif c < n_issues * (1 + _N_QUALIFIERS + len(_REGIONS)):
        c -= n_issues * (1 + _N_QUALIFIERS)
        i, q, r = c % n_issues, -1, c // n_issues
    else:
        c -= n_issues * (1 + _N_QUALIFIERS + len(_REGIONS))
        i, c = c % n_issues, c // n_issues
        q, r = c % _N_QUALIFIERS, c // _N_QUALIFIERS
    return (i * 37 + shift) % n_issues, q, r


def _join(parts: Sequence[str]) -> str:
    text = " ".join(p for p in parts if p)
    return text[:1].upper() + text[1:]


# --------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------


def _fill(template: str, issue: tuple[str, bool], meaning: _Meaning, rng: _Uniform | None) -> str:
    values = dict(_AGREE_PLURAL if issue[1] else _AGREE_SINGULAR)
    values["X"] = issue[0]
    if meaning.effect is not None:
        values["E"] = _pick(meaning.effect, rng)
    if meaning.group is not None:
        values["G"] = _pick(meaning.group, rng)
    return template.format_map(values)


def _render_claim(topic: _Topic, meaning: _Meaning, rng: _Uniform | None) -> str:
    """A conclusion: canonical wording without ``rng``, else a paraphrase."""
    template = _pick(meaning.frame.templates, rng)
    body = _fill(template, _pick(topic.issue, rng), meaning, rng)
    tail = [_pick(meaning.adjunct, rng) if meaning.adjunct else ""]
    tail.append(_pick(topic.qualifier, rng) if topic.qualifier else "")
    tail.append(_pick(topic.region, rng) if topic.region else "")
    if rng is not None and (topic.qualifier or topic.region) and rng.random() < 0.3:
        front = tail.pop()  # "In Germany, nuclear power should be banned"
        if not front:
            front = tail.pop()
        return _join([front + ",", body, *tail])
    return _join([body, *tail])


def _render_premise(topic: _Topic, meaning: _Meaning, rng: _Uniform | None) -> str:
    """The core sentence of a premise: canonical without ``rng``, else a paraphrase."""
    template = _pick(meaning.frame.templates, rng)
    body = _fill(template, _pick(topic.issue, rng), meaning, rng)
    adjunct = ""
    if meaning.frame.slot == "group" and meaning.adjunct is not None:
        adjunct = _pick(meaning.adjunct, rng)
    elif meaning.frame.slot in ("good", "bad") and meaning.group is not None:
        # the group of an effect premise: "... among poor families" / "for poor families, ..."
        prep = _pick(("for", "among"), rng)
        adjunct = prep + " " + _pick(meaning.group, rng)
    if rng is None:
        return _join([body, adjunct]) + "."
    fronted = adjunct and rng.random() < 0.35  # "for poor families, X reduces crime"
    parts = [adjunct + ",", body] if fronted else [body, adjunct]
    hedge = rng.random()
    if hedge < 0.2:
        parts.insert(0, _HEDGES_THAT[int(rng.random() * len(_HEDGES_THAT))])
    elif hedge < 0.4:
        parts.insert(0, _HEDGES_COMMA[int(rng.random() * len(_HEDGES_COMMA))])
    elif hedge < 0.5:
        return _join(parts) + _HEDGES_AFTER[int(rng.random() * len(_HEDGES_AFTER))] + "."
    return _join(parts) + "."


def _elaborate(
    topic: _Topic, meaning: _Meaning, rng: _Uniform, n_sentences: int, side: str
) -> list[str]:
    goods, bads, groups = _vocabulary(topic.domain)
    sentences = []
    last = -1
    for _ in range(n_sentences):
        if rng.random() < 0.3:
            template = _DEBATE_TALK[int(rng.random() * len(_DEBATE_TALK))]
            sentences.append(template.replace("{side}", side))
            continue
        index = int(rng.random() * len(_ELABORATIONS))
        if index == last:  # no template twice in a row
            index = (index + 1) % len(_ELABORATIONS)
        last = index
        template = _ELABORATIONS[index]
        issue = _pick(topic.issue, rng)
        if meaning.effect is not None:
            effect = meaning.effect
        else:
            effect = _pick(goods if rng.random() < 0.5 else bads, rng)
        group = meaning.group if meaning.group is not None else _pick(groups, rng)
        year = 1990 + int(rng.random() * 29)
        values = dict(_AGREE_PLURAL if issue[1] else _AGREE_SINGULAR)
        values.update(
            X=issue[0],
            E=_pick(effect, rng),
            G=_pick(group, rng),
            place=_PLACES[int(rng.random() * len(_PLACES))],
            org=_ORGS[int(rng.random() * len(_ORGS))],
            year=str(year),
            year2=str(year + 1 + int(rng.random() * 10)),
            pct=str(2 + int(rng.random() * 96)),
        )
        text = template.format_map(values)
        sentences.append(text[:1].upper() + text[1:])
    return sentences


# --------------------------------------------------------------------------------------------
# The generator
# --------------------------------------------------------------------------------------------


class _Claim(NamedTuple):
    text: str
    polarity: int
    cluster: str


class _Plan:
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

    def topic(self, rank: int) -> _Topic:
        """The topic at a popularity rank; rebuilt on each call (cheap), so nothing is kept."""
        shape = self.shape
        i, q, r = _topic_content(rank, self.seed)
        domain, issue = _issues()[i]
        qualifier = _DOMAINS[domain].qualifiers[q] if q >= 0 else None
        region = _REGIONS[r] if r >= 0 else None
        debates = self.expected_debates * _zipf_share(rank, self.n_topics, shape.topic_zipf)
        premises = debates * shape.premises_per_claim * (1.0 - shape.reuse_rate)
        title = _join([issue[0][0], qualifier[0] if qualifier else "", region[0] if region else ""])
        return _Topic(
            rank=rank,
            domain=domain,
            issue=issue,
            qualifier=qualifier,
            region=region,
            title=title,
            key=f"{issue[0][0]}|{qualifier[0] if qualifier else ''}|{region[0] if region else ''}",
            n_claims=max(1, round(debates / shape.claim_cluster_mean)),
            n_premises=max(2, round(premises / shape.premise_cluster_mean / 2.0)),
            claim_offset=_mix(self.seed, 21, rank),
            premise_offset=(_mix(self.seed, 22, rank), _mix(self.seed, 23, rank)),
        )

    def conclusion(self, topic: _Topic, k: int) -> _Claim:
        """The conclusion of the ``k``-th debate of a topic: a pure function, so a later debate
        can reuse it without anyone storing it."""
        stream = _HashStream(_mix(self.seed, 31, topic.rank, k))
        j = int(stream.random() * topic.n_claims)
        space = _space(topic.domain, "claim")
        meaning = _decode(
            space, (_BIG_PRIME * j + topic.claim_offset) % space.size, topic.domain, False
        )
        verbatim = stream.random() < self.shape.conclusion_verbatim
        text = _render_claim(topic, meaning, None if verbatim else stream)
        cluster = _cluster_id("c:", topic.key + "|" + _meaning_key(meaning))
        return _Claim(text, meaning.frame.polarity, cluster)

    def premise_meaning(self, topic: _Topic, polarity: int, rank: int) -> _Meaning:
        kind = "premise+" if polarity > 0 else "premise-"
        space = _space(topic.domain, kind)
        offset = topic.premise_offset[0 if polarity > 0 else 1]
        return _decode(space, (_BIG_PRIME * rank + offset) % space.size, topic.domain, True)

    def premise_cluster(self, topic: _Topic, meaning: _Meaning) -> str:
        return _cluster_id("p:", topic.issue[0][0] + "|" + _meaning_key(meaning))

    def n_sentences(self, rng: _Uniform) -> int:
        shape = self.shape
        if rng.random() < shape.single_sentence_share:
            return 1
        n = round(math.exp(self.sentences_mu + shape.sentences_sigma * _normal(rng)))
        return min(shape.max_sentences, max(2, n))

    def debate_size(self, rng: _Uniform) -> int:
        shape = self.shape
        n = round(math.exp(self.debate_mu + shape.debate_size_sigma * _normal(rng)))
        return min(shape.max_arguments_per_debate, max(1, n))

    def premise_count(self, rng: _Uniform) -> int:
        u = rng.random()
        for i, bound in enumerate(self.premise_count_cdf):
            if u < bound:
                return i + 1
        return len(self.premise_count_cdf)

    def portal(self, rng: _Uniform) -> str:
        u = rng.random()
        for bound, name in self.portal_cdf:
            if u < bound:
                return name
        return self.portal_cdf[-1][1]


def generate(
    n_arguments: int, *, seed: int = 0, shape: Shape | None = None, truth: bool = False
) -> Iterator[Argument]:
    """Yield ``n_arguments`` synthetic arguments in args.me format, deterministically by seed.

    Parameters
    ----------
    n_arguments
        How many arguments to yield (exactly).
    seed
        Any integer; the same seed gives the same corpus, byte for byte once serialised.
    shape
        Corpus shape; defaults follow the debate-portal statistics of Dumani (GvD 2019),
        Dumani et al. (ECIR 2020) and Wachsmuth et al. (EACL 2017), see the module docstring.
    truth
        Add ground-truth meaning ids: ``"_cluster"`` on each premise and
        ``"_conclusion_cluster"`` on each argument (see "Ground truth" in the module docstring).

    Returns
    -------
    Iterator[dict]
        Arguments one at a time; memory does not grow with ``n_arguments`` beyond one counter
        per topic.

    Raises
    ------
    ConfigError
        If ``n_arguments`` is negative.
    """
    if n_arguments < 0:
        raise ConfigError(f"n_arguments must be >= 0, got {n_arguments}")
    return _generate(n_arguments, seed, shape if shape is not None else Shape(), truth)


def _generate(n_arguments: int, seed: int, shape: Shape, truth: bool) -> Iterator[Argument]:
    plan = _Plan(n_arguments, seed, shape)
    rng = random.Random(_mix(seed, 1))
    debates_so_far = [0] * plan.n_topics
    id_offset = _mix(seed, 2) & 0xFFFFFFFF
    produced = 0
    debate = 0
    while produced < n_arguments:
        rank = _zipf_index(rng.random(), plan.n_topics, shape.topic_zipf)
        k = debates_so_far[rank]
        debates_so_far[rank] = k + 1
        topic = plan.topic(rank)
        claim = plan.conclusion(topic, k)
        size = min(n_arguments - produced, plan.debate_size(rng))
        portal = plan.portal(rng)
        stamp = time.strftime(
            "%Y-%m-%dT%H:%M:%SZ",
            time.gmtime(_CRAWL_START + 5 * debate + int(rng.random() * 5)),
        )
        source_id = f"{(debate * 0x9E3779B1 + id_offset) & 0xFFFFFFFF:08x}-{stamp}"
        title = claim.text if portal == "debate.org" else topic.title
        slug = _NON_ALNUM.sub("-", title).strip("-")
        title_fmt, url_fmt = _PORTAL_FORMATS[portal]
        source_title = title_fmt.format(title=title)
        source_url = url_fmt.format(
            Slug=slug,
            slug=slug.lower(),
            Slug_=slug.replace("-", "_"),
            n=1 + debate % 5,
            num=1000 + debate,
            domain=topic.domain,
        )
        ids = [f"{source_id}-{i:05d}-000" for i in range(size)]
        for i in range(size):
            premises = _premises(plan, rng, topic, k, claim, truth)
            argument: Argument = {
                "id": ids[i],
                "conclusion": claim.text,
                "premises": premises,
                "context": {
                    "sourceId": source_id,
                    "previousArgumentInSourceId": ids[i - 1] if i else "",
                    "acquisitionTime": stamp,
                    "discussionTitle": title,
                    "sourceTitle": source_title,
                    "sourceUrl": source_url,
                    "nextArgumentInSourceId": ids[i + 1] if i + 1 < size else "",
                },
            }
            if truth:
                argument["_conclusion_cluster"] = claim.cluster
            yield argument
        produced += size
        debate += 1


def _premises(
    plan: _Plan, rng: random.Random, topic: _Topic, k: int, claim: _Claim, truth: bool
) -> list[dict[str, Any]]:
    """The premises of one argument, all with the argument's stance."""
    shape = plan.shape
    count = plan.premise_count(rng)
    reused: list[_Claim | None] = [None] * count
    if k > 0 and shape.reuse_rate > 0:
        for slot in range(count):
            if rng.random() < shape.reuse_rate:
                old = plan.conclusion(topic, _zipf_index(rng.random(), k, shape.reuse_zipf))
                if old.text != claim.text:  # no self-reuse
                    reused[slot] = old
    first = next((r for r in reused if r is not None), None)
    if first is not None:
        # A reused conclusion supports a claim of the same polarity and attacks the opposite.
        sign = first.polarity * claim.polarity
    else:
        sign = 1 if rng.random() < shape.pro_share else -1
    stance = "PRO" if sign > 0 else "CON"
    side = "Pro" if sign > 0 else "Con"
    polarity = sign * claim.polarity
    out = []
    for earlier in reused:
        if earlier is not None:
            premise: dict[str, Any] = {"text": earlier.text, "stance": stance, "annotations": []}
            if truth:
                premise["_cluster"] = earlier.cluster
            out.append(premise)
            continue
        meaning = plan.premise_meaning(
            topic, polarity, _zipf_index(rng.random(), topic.n_premises, shape.premise_zipf)
        )
        paraphrase = rng.random() < shape.paraphrase_rate
        core = _render_premise(topic, meaning, rng if paraphrase else None)
        n_sentences = plan.n_sentences(rng)
        if n_sentences == 1:
            text = core
        else:
            sentences = _elaborate(topic, meaning, rng, n_sentences - 1, side)
            if rng.random() < 0.15:
                sentences.insert(0, _OPENERS[int(rng.random() * len(_OPENERS))])
                sentences.insert(1, core)
            else:
                sentences.insert(0, core)
            text = _paragraphs(sentences, rng)
        premise = {"text": text, "stance": stance, "annotations": []}
        if truth:
            premise["_cluster"] = plan.premise_cluster(topic, meaning)
        out.append(premise)
    return out


def _paragraphs(sentences: list[str], rng: _Uniform) -> str:
    """Join sentences, with a paragraph break now and then as in long forum posts."""
    parts = [sentences[0]]
    for sentence in sentences[1:]:
        parts.append("\n\n" if rng.random() < 0.12 else " ")
        parts.append(sentence)
    return "".join(parts)


# --------------------------------------------------------------------------------------------
# Writers
# --------------------------------------------------------------------------------------------


def _dumps(argument: Argument) -> str:
    return json.dumps(argument, ensure_ascii=False)


def dump_json(
    out: TextIO,
    n_arguments: int,
    seed: int = 0,
    *,
    shape: Shape | None = None,
    truth: bool = False,
) -> int:
    """Write ``{"arguments": [...]}`` to an open text stream, one argument at a time."""
    count = 0
    out.write('{"arguments": [\n')
    for argument in generate(n_arguments, seed=seed, shape=shape, truth=truth):
        if count:
            out.write(",\n")
        out.write(_dumps(argument))
        count += 1
    out.write("\n]}\n")
    return count


def dump_jsonl(
    out: TextIO,
    n_arguments: int,
    seed: int = 0,
    *,
    shape: Shape | None = None,
    truth: bool = False,
) -> int:
    """Write one argument per line to an open text stream."""
    count = 0
    for argument in generate(n_arguments, seed=seed, shape=shape, truth=truth):
        out.write(_dumps(argument))
        out.write("\n")
        count += 1
    return count


def write_json(
    path: str | Path,
    n_arguments: int,
    seed: int = 0,
    *,
    shape: Shape | None = None,
    truth: bool = False,
) -> int:
    """Stream a corpus to ``path`` as args.me JSON, ``{"arguments": [...]}``; returns the count.

    The array is written incrementally, never built in memory.
    """
    with open(path, "w", encoding="utf-8", newline="\n", buffering=1 << 20) as out:
        return dump_json(out, n_arguments, seed, shape=shape, truth=truth)


def write_jsonl(
    path: str | Path,
    n_arguments: int,
    seed: int = 0,
    *,
    shape: Shape | None = None,
    truth: bool = False,
) -> int:
    """Stream a corpus to ``path`` as JSON Lines, one argument per line; returns the count."""
    with open(path, "w", encoding="utf-8", newline="\n", buffering=1 << 20) as out:
        return dump_jsonl(out, n_arguments, seed, shape=shape, truth=truth)
