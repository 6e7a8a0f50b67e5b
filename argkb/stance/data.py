"""Labelled (conclusion, premise, stance) pairs from the corpora that carry a stance.

Every dataset is read through argkb's own loaders, so a pair is exactly what ``argkb load``
would store as a ``PREMISE_OF`` edge with its stance:

* ``argkp``: IBM ArgKP-2021, argument -> topic (a debate motion), 24 train and 4 dev topics; the
  two splits are topic-disjoint;
* ``argquality``: Webis-ArgQuality-20, args.me premise -> topic question (Long Query), 20 topics;
* ``aif``: AIF argument maps (QT30, microtexts), premise I-node -> conclusion I-node of an RA
  (pro) or CA (con) node; the group is the map;
* ``sigir19``: the SIGIR-19 dev half, an args.me post -> its debate's title, with the judged
  stance ("Pro" / "Con"; "Not specified" left out); the group is the issue (its biased and
  neutral topic together), and an argument judged for both counts once.

``group`` is the unit of topic-disjoint splitting: the topic for ArgKP and ArgQuality, the map
for AIF (a map is one debate or one microtext on one topic).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from argkb.errors import ConfigError

DATASETS = ("argkp", "argquality", "aif", "sigir19")


@dataclass(frozen=True, slots=True)
class StancePair:
    """One premise with its conclusion and stance (``pro`` is True)."""

    conclusion: str
    premise: str
    pro: bool
    group: str  # topic or map: the unit of topic-disjoint splits
    dataset: str
    split: str = ""  # ArgKP's own split (train/dev); empty elsewhere


def text_key(text: str) -> str:
    """A premise text with case and spacing ignored: how a text shared by two datasets is found."""
    return " ".join(text.lower().split())


def without_texts_of(pairs: Sequence[StancePair], others: Iterable[StancePair]) -> list[StancePair]:
    """``pairs`` without those whose premise text (:func:`text_key`) one of ``others`` has:
    training pairs without the texts scored, or scored pairs without the texts trained on.

    ArgQuality and SIGIR-19 are both args.me samples: 21 of SIGIR-19 dev's 183 scored pairs
    have their premise text in ArgQuality, labelled the same way (the portal's side), so a
    model trained on one and scored on the other is scored partly on what it learnt."""
    seen = {text_key(p.premise) for p in others}
    return [p for p in pairs if text_key(p.premise) not in seen]


def _pairs(records: Iterable[object], dataset: str, group_of: str | None) -> Iterator[StancePair]:
    from argkb.loaders.records import ArgumentRecord

    for record in records:
        if not isinstance(record, ArgumentRecord) or record.stance not in ("pro", "con"):
            continue
        props = dict(record.properties)
        if group_of is None:
            group = record.conclusion.text
        elif group_of == "source":
            group = record.source or record.aid
        else:
            group = str(props[group_of])
        for premise in dict.fromkeys(record.premises):
            yield StancePair(
                conclusion=record.conclusion.text,
                premise=premise.text,
                pro=record.stance == "pro",
                group=group,
                dataset=dataset,
                split=str(props.get("split", "")),
            )


def read_pairs(dataset: str, path: str | os.PathLike[str]) -> list[StancePair]:
    """The labelled pairs of one dataset directory (see the module docstring).

    Records the loader rejects are left out, as ``argkb load --on-error skip`` would.
    """
    root = Path(path)
    if not root.exists():
        raise ConfigError(f"{root}: no such file or directory")
    if dataset == "argkp":
        from argkb.loaders import argkp

        return list(_pairs(argkp.read([root]), dataset, None))  # the topic is the conclusion
    if dataset == "argquality":
        from argkb.loaders import argquality

        return list(_pairs(argquality.read([root]), dataset, "topic_id"))
    if dataset == "aif":
        from argkb.loaders import aif

        return list(_pairs(aif.read([root]), dataset, "source"))
    if dataset == "sigir19":
        return _sigir19_pairs(root)
    raise ConfigError(f"unknown stance dataset {dataset!r} (known: {', '.join(DATASETS)})")


def _sigir19_pairs(root: Path) -> list[StancePair]:
    from argkb.loaders.sigir19 import load_judgements

    data = load_judgements(root)
    pairs: dict[tuple[int, int], StancePair] = {}
    for topic, judgements in sorted(data.judgements.items()):
        for j in judgements:
            if j.stance in ("pro", "con") and j.key not in pairs:
                pairs[j.key] = StancePair(conclusion=j.conclusion, premise=j.premise,
                                          pro=j.stance == "pro", group=str(data.issues[topic]),
                                          dataset="sigir19")  # fmt: skip
    return list(pairs.values())
