"""The generator (:func:`generate`) and the writers that stream its corpora to files."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from argkb.errors import ConfigError
from synthcorpus.draws import Uniform, mix, zipf_index
from synthcorpus.meanings import Topic, elaborate, render_premise
from synthcorpus.plan import Claim, Plan, Shape
from synthcorpus.vocabulary import OPENERS, PORTAL_FORMATS

Argument = dict[str, Any]

_CRAWL_START = 1555545600  # 2019-04-18T00:00:00Z, the args.me crawl
_NON_ALNUM = re.compile(r"[^A-Za-z0-9]+")


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
        Dumani et al. (ECIR 2020) and Wachsmuth et al. (EACL 2017), see :mod:`synthcorpus`.
    truth
        Add ground-truth meaning ids: ``"_cluster"`` on each premise and
        ``"_conclusion_cluster"`` on each argument (see "Ground truth" in :mod:`synthcorpus`).

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
    plan = Plan(n_arguments, seed, shape)
    rng = random.Random(mix(seed, 1))
    debates_so_far = [0] * plan.n_topics
    id_offset = mix(seed, 2) & 0xFFFFFFFF
    produced = 0
    debate = 0
    while produced < n_arguments:
        rank = zipf_index(rng.random(), plan.n_topics, shape.topic_zipf)
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
        title_fmt, url_fmt = PORTAL_FORMATS[portal]
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
    plan: Plan, rng: random.Random, topic: Topic, k: int, claim: Claim, truth: bool
) -> list[dict[str, Any]]:
    """The premises of one argument, all with the argument's stance."""
    shape = plan.shape
    count = plan.premise_count(rng)
    reused: list[Claim | None] = [None] * count
    if k > 0 and shape.reuse_rate > 0:
        for slot in range(count):
            if rng.random() < shape.reuse_rate:
                old = plan.conclusion(topic, zipf_index(rng.random(), k, shape.reuse_zipf))
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
            topic, polarity, zipf_index(rng.random(), topic.n_premises, shape.premise_zipf)
        )
        paraphrase = rng.random() < shape.paraphrase_rate
        core = render_premise(topic, meaning, rng if paraphrase else None)
        n_sentences = plan.n_sentences(rng)
        if n_sentences == 1:
            text = core
        else:
            sentences = elaborate(topic, meaning, rng, n_sentences - 1, side)
            if rng.random() < 0.15:
                sentences.insert(0, OPENERS[int(rng.random() * len(OPENERS))])
                sentences.insert(1, core)
            else:
                sentences.insert(0, core)
            text = _paragraphs(sentences, rng)
        premise = {"text": text, "stance": stance, "annotations": []}
        if truth:
            premise["_cluster"] = plan.premise_cluster(topic, meaning)
        out.append(premise)
    return out


def _paragraphs(sentences: list[str], rng: Uniform) -> str:
    """Join sentences, with a paragraph break now and then as in long forum posts."""
    parts = [sentences[0]]
    for sentence in sentences[1:]:
        parts.append("\n\n" if rng.random() < 0.12 else " ")
        parts.append(sentence)
    return "".join(parts)


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

    The array is written incrementally, never built in memory, to ``<path>.partial`` first, so
    that a run killed while writing leaves no truncated corpus at ``path``.
    """
    return _write(path, dump_json, n_arguments, seed, shape=shape, truth=truth)


def write_jsonl(
    path: str | Path,
    n_arguments: int,
    seed: int = 0,
    *,
    shape: Shape | None = None,
    truth: bool = False,
) -> int:
    """Stream a corpus to ``path`` as JSON Lines, one argument per line (through
    ``<path>.partial``, as :func:`write_json`); returns the count."""
    return _write(path, dump_jsonl, n_arguments, seed, shape=shape, truth=truth)


def _write(
    path: str | Path, dump: Callable[..., int], n_arguments: int, seed: int, **options: Any
) -> int:
    target = Path(path)
    partial = target.with_name(target.name + ".partial")
    with open(partial, "w", encoding="utf-8", newline="\n", buffering=1 << 20) as out:
        count = dump(out, n_arguments, seed, **options)
    partial.replace(target)
    return count
