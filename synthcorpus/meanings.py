"""Topics and meanings (pure functions of the seed and small integers), rendered as text."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from synthcorpus.draws import Uniform, mix, pick
from synthcorpus.vocabulary import (
    ADJUNCTS,
    AGREE_PLURAL,
    AGREE_SINGULAR,
    CLAIM_FRAMES,
    COMMON_GROUPS,
    DEBATE_TALK,
    DOMAINS,
    ELABORATIONS,
    HEDGES_AFTER,
    HEDGES_COMMA,
    HEDGES_THAT,
    ISSUE_TABLE,
    ORGS,
    PLACES,
    PREMISE_FRAMES,
    REGIONS,
    TIMES,
    Forms,
    Frame,
    NounForms,
)


class Meaning(NamedTuple):
    frame: Frame
    effect: Forms | None
    group: Forms | None
    adjunct: Forms | None  # time adjunct of a claim, or adjunct of a group premise


class Space(NamedTuple):
    """An enumerable set of meanings: ``(frame, number of meanings with that frame)``."""

    parts: tuple[tuple[Frame, int], ...]
    size: int


@cache
def topic_vocabulary(
    domain: str, premise: bool = True
) -> tuple[tuple[Forms, ...], tuple[Forms, ...], tuple[Forms, ...]]:
    """Goods, bads and groups a topic of ``domain`` talks about (its own and related domains).

    Claims name only the domain's own groups ("... should be mandatory for students"), which
    keeps them plausible; premises and elaborations use all.
    """
    own = DOMAINS[domain]
    parts = [own, *(DOMAINS[name] for name in own.related)]
    goods = tuple(g for d in parts for g in d.goods)
    bads = tuple(b for d in parts for b in d.bads)
    if not premise:
        return goods, bads, own.groups
    groups = (*own.groups, *COMMON_GROUPS, *(g for d in parts[1:] for g in d.groups))
    return goods, bads, groups


def _slot_count(frame: Frame, domain: str, premise: bool) -> int:
    goods, bads, groups = topic_vocabulary(domain, premise)
    if frame.slot == "good":
        return len(goods) * ((1 + len(groups)) if premise else 1)
    if frame.slot == "bad":
        return len(bads) * ((1 + len(groups)) if premise else 1)
    if frame.slot == "group":
        return len(groups) * ((1 + len(ADJUNCTS)) if premise else 1)
    return 1 + len(TIMES) if frame.timed else 1


@cache
def meaning_space(domain: str, kind: str) -> Space:
    """The meanings of one kind: ``"claim"``, ``"premise+"`` or ``"premise-"``."""
    if kind == "claim":
        frames = CLAIM_FRAMES
    else:
        polarity = 1 if kind == "premise+" else -1
        frames = tuple(f for f in PREMISE_FRAMES if f.polarity == polarity)
    parts = tuple((f, _slot_count(f, domain, kind != "claim")) for f in frames)
    return Space(parts, sum(count for _, count in parts))


def decode(space: Space, index: int, domain: str, premise: bool) -> Meaning:
    goods, bads, groups = topic_vocabulary(domain, premise)
    for frame, count in space.parts:
        if index >= count:
            index -= count
            continue
        if frame.slot in ("good", "bad"):
            effects = goods if frame.slot == "good" else bads
            if not premise:
                return Meaning(frame, effects[index], None, None)
            e, g = divmod(index, 1 + len(groups))
            return Meaning(frame, effects[e], groups[g - 1] if g else None, None)
        if frame.slot == "group":
            if not premise:
                return Meaning(frame, None, groups[index], None)
            g, a = divmod(index, 1 + len(ADJUNCTS))
            return Meaning(frame, None, groups[g], ADJUNCTS[a - 1] if a else None)
        return Meaning(frame, None, None, TIMES[index - 1] if index else None)
    raise AssertionError("meaning index out of range")  # pragma: no cover


def meaning_key(meaning: Meaning) -> str:
    parts = (meaning.effect, meaning.group, meaning.adjunct)
    return "|".join([meaning.frame.name, *(p[0] if p else "" for p in parts)])


class Topic(NamedTuple):
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
_N_COMBOS = len(ISSUE_TABLE) * (1 + _N_QUALIFIERS) * (1 + len(REGIONS))


def topic_content(rank: int, seed: int) -> tuple[int, int, int]:
    """Issue, qualifier and region indices (-1: none) of the topic at a popularity rank.

    The most debated topics are plain issues ("nuclear power"), then issues with a qualifier,
    then with a region, then with both; issues are permuted by the seed. Beyond ``_N_COMBOS``
    topics, contents repeat.
    """
    n_issues = len(ISSUE_TABLE)
    c = rank % _N_COMBOS
    shift = mix(seed, 11) % n_issues
    if c < n_issues:
        q, r, i = -1, -1, c
    elif c < n_issues * (1 + _N_QUALIFIERS):
        c -= n_issues
        i, q, r = c % n_issues, c // n_issues, -1
    elif c < n_issues * (1 + _N_QUALIFIERS + len(REGIONS)):
        c -= n_issues * (1 + _N_QUALIFIERS)
        i, q, r = c % n_issues, -1, c // n_issues
    else:
        c -= n_issues * (1 + _N_QUALIFIERS + len(REGIONS))
        i, c = c % n_issues, c // n_issues
        q, r = c % _N_QUALIFIERS, c // _N_QUALIFIERS
    return (i * 37 + shift) % n_issues, q, r


def join_words(parts: Sequence[str]) -> str:
    text = " ".join(p for p in parts if p)
    return text[:1].upper() + text[1:]


def cluster_id(prefix: str, key: str) -> str:
    return prefix + hashlib.blake2b(key.encode("utf-8"), digest_size=6).hexdigest()


def _fill(template: str, issue: tuple[str, bool], meaning: Meaning, rng: Uniform | None) -> str:
    values = dict(AGREE_PLURAL if issue[1] else AGREE_SINGULAR)
    values["X"] = issue[0]
    if meaning.effect is not None:
        values["E"] = pick(meaning.effect, rng)
    if meaning.group is not None:
        values["G"] = pick(meaning.group, rng)
    return template.format_map(values)


def render_claim(topic: Topic, meaning: Meaning, rng: Uniform | None) -> str:
    """A conclusion: canonical wording without ``rng``, else a paraphrase."""
    template = pick(meaning.frame.templates, rng)
    body = _fill(template, pick(topic.issue, rng), meaning, rng)
    tail = [pick(meaning.adjunct, rng) if meaning.adjunct else ""]
    tail.append(pick(topic.qualifier, rng) if topic.qualifier else "")
    tail.append(pick(topic.region, rng) if topic.region else "")
    if rng is not None and (topic.qualifier or topic.region) and rng.random() < 0.3:
        front = tail.pop()  # "In Germany, nuclear power should be banned"
        if not front:
            front = tail.pop()
        return join_words([front + ",", body, *tail])
    return join_words([body, *tail])


def render_premise(topic: Topic, meaning: Meaning, rng: Uniform | None) -> str:
    """The core sentence of a premise: canonical without ``rng``, else a paraphrase."""
    template = pick(meaning.frame.templates, rng)
    body = _fill(template, pick(topic.issue, rng), meaning, rng)
    adjunct = ""
    if meaning.frame.slot == "group" and meaning.adjunct is not None:
        adjunct = pick(meaning.adjunct, rng)
    elif meaning.frame.slot in ("good", "bad") and meaning.group is not None:
        # the group of an effect premise: "... among poor families" / "for poor families, ..."
        prep = pick(("for", "among"), rng)
        adjunct = prep + " " + pick(meaning.group, rng)
    if rng is None:
        return join_words([body, adjunct]) + "."
    fronted = adjunct and rng.random() < 0.35  # "for poor families, X reduces crime"
    parts = [adjunct + ",", body] if fronted else [body, adjunct]
    hedge = rng.random()
    if hedge < 0.2:
        parts.insert(0, HEDGES_THAT[int(rng.random() * len(HEDGES_THAT))])
    elif hedge < 0.4:
        parts.insert(0, HEDGES_COMMA[int(rng.random() * len(HEDGES_COMMA))])
    elif hedge < 0.5:
        return join_words(parts) + HEDGES_AFTER[int(rng.random() * len(HEDGES_AFTER))] + "."
    return join_words(parts) + "."


def elaborate(
    topic: Topic, meaning: Meaning, rng: Uniform, n_sentences: int, side: str
) -> list[str]:
    goods, bads, groups = topic_vocabulary(topic.domain)
    sentences = []
    last = -1
    for _ in range(n_sentences):
        if rng.random() < 0.3:
            template = DEBATE_TALK[int(rng.random() * len(DEBATE_TALK))]
            sentences.append(template.replace("{side}", side))
            continue
        index = int(rng.random() * len(ELABORATIONS))
        if index == last:  # no template twice in a row
            index = (index + 1) % len(ELABORATIONS)
        last = index
        template = ELABORATIONS[index]
        issue = pick(topic.issue, rng)
        if meaning.effect is not None:
            effect = meaning.effect
        else:
            effect = pick(goods if rng.random() < 0.5 else bads, rng)
        group = meaning.group if meaning.group is not None else pick(groups, rng)
        year = 1990 + int(rng.random() * 29)
        values = dict(AGREE_PLURAL if issue[1] else AGREE_SINGULAR)
        values.update(
            X=issue[0],
            E=pick(effect, rng),
            G=pick(group, rng),
            place=PLACES[int(rng.random() * len(PLACES))],
            org=ORGS[int(rng.random() * len(ORGS))],
            year=str(year),
            year2=str(year + 1 + int(rng.random() * 10)),
            pct=str(2 + int(rng.random() * 96)),
        )
        text = template.format_map(values)
        sentences.append(text[:1].upper() + text[1:])
    return sentences
