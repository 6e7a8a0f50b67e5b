"""Key points of a topic in the graph (``argkb keypoints TOPIC``).

The topic's premises (those of the arguments that conclude a unit with the topic's text,
``cypher/keypoints/topic_premises.cypher``) are grouped by stance; each stance's premises go
through :func:`argkb.keypoints.generate.key_points`. A premise used by several arguments counts
once. Premises whose stance is unknown (``argkb stance`` not run, or undecided) are left out and
counted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import neo4j

    from argkb.progress import Progress

STANCES = ("pro", "con")
_TOPIC_SPACES = re.compile("[ \t\n\r]")  # what cypher/keypoints/topic_premises.cypher cuts at


def missing_topic(topic: str, closest: list[str] | None = None) -> str:
    """The one-line answer when no argument concludes ``topic``, naming the ``closest``
    conclusions when there are any."""
    if closest:
        return f"no argument concludes {topic!r}; closest conclusions: " + "; ".join(
            repr(text) for text in closest
        )
    return f"no argument concludes {topic!r} (argkb query finds topic texts)"


def why_missing(driver: neo4j.Driver, topic: str, *, database: str | None = None) -> str:
    """The one-line answer when no argument concludes ``topic`` (:func:`missing_topic`, with
    the closest conclusions), or, in a graph that holds no argument at all, what to load."""
    from argkb.db import cypher

    closest = closest_topics(driver, topic, database=database)
    if not closest and not cypher.read(driver, "keypoints/any_argument", database=database)[0][0]:
        return (
            f"no argument concludes {topic!r}: the graph holds no argument yet "
            "(argkb load FORMAT PATH loads a corpus)"
        )
    return missing_topic(topic, closest)


def closest_topics(
    driver: neo4j.Driver, topic: str, *, database: str | None = None, k: int = 3
) -> list[str]:
    """Up to ``k`` conclusions of arguments closest in words to ``topic`` (BM25 over claim
    texts); none where the text has no searchable word or the ``claim_text`` index is
    populating or unavailable (:func:`argkb.retrieve.routes.read_if_available`); other errors
    raise."""
    from argkb.db import cypher
    from argkb.retrieve.lucene import lucene_query
    from argkb.retrieve.routes import read_if_available

    text = lucene_query(topic)
    if not text:
        return []
    columns = read_if_available(
        lambda: cypher.read_columns(
            driver, "keypoints/closest_topics", database=database, text=text, k=k
        ),
        driver, ["claim_text"], database,
    )  # fmt: skip
    if columns is None:
        return []
    return [str(t) for t in columns["text"]]


@dataclass
class Premise:
    uid: str
    text: str
    stance: str
    arguments: list[str] = field(default_factory=list)
    sources: list[dict[str, str | None]] = field(default_factory=list)  # sid, title, url


def topic_premises(
    driver: neo4j.Driver, topic: str, *, database: str | None = None
) -> dict[str, Premise]:
    """uid -> premise of the topic, one per (premise, stance). The topic matches a conclusion
    with the same words: case and the spaces, tabs and line breaks between words do not matter.
    The topic is cut into words at those four characters only, as the query cuts the
    conclusions, and both are lower-cased in Cypher: cut at any Unicode space (no-break space),
    or lower-cased by Python, the exact text of a conclusion could fail to match it."""
    from argkb.db import cypher

    words = [w for w in _TOPIC_SPACES.split(topic) if w]
    columns = cypher.read_columns(
        driver, "keypoints/topic_premises", database=database, words=words
    )
    out: dict[str, Premise] = {}
    for uid, text, stance, aid, sid, title, url in zip(
        columns["premise"], columns["text"], columns["stance"], columns["argument"],
        columns["source"], columns["title"], columns["url"], strict=True,
    ):  # fmt: skip
        key = f"{uid}|{stance}"
        premise = out.setdefault(key, Premise(uid, text, stance))
        if aid not in premise.arguments:
            premise.arguments.append(aid)
        if sid and all(s["sid"] != sid for s in premise.sources):  # as argkb query's sources
            premise.sources.append({"sid": sid, "title": title or None, "url": url or None})
    return out


def topic_key_points(
    premises: dict[str, Premise],
    topic: str,
    stances: tuple[str, ...],
    k: int,
    embedder: object,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The report of ``argkb keypoints``: per stance, the key points with their prevalence
    (premises and arguments matched), two example premises and their sources. ``progress``
    hears a line per stance before its sentences are embedded (the slow part)."""
    from argkb.keypoints.generate import key_points

    report: dict[str, Any] = {
        "topic": topic,
        "premises": len({p.uid for p in premises.values()}),
        "unknown_stance": sum(1 for p in premises.values() if p.stance not in STANCES),
        "stances": {},
    }
    for stance in stances:
        mine = {key: p for key, p in premises.items() if p.stance == stance}
        items = [(key, p.text) for key, p in mine.items()]
        if progress is not None and items:
            progress.message(f"{stance}: {len(items):,} premises; choosing key points ...")
        found = key_points(topic, stance, items, embedder, k) if items else []
        rows = []
        for kp in found:
            matched = [mine[key] for key in kp.matched]
            # examples: other premises than the one the key point was taken from (``from``)
            others = [mine[key] for key in kp.matched if key != kp.source]
            examples = [m for m in others if m.text != kp.text][:2]
            rows.append(
                {
                    "key_point": kp.text,
                    "prevalence": kp.prevalence,
                    "arguments": len({a for m in matched for a in m.arguments}),
                    "from": {"text": mine[kp.source].text, "sources": mine[kp.source].sources},
                    "examples": [{"text": m.text, "sources": m.sources} for m in examples],
                }
            )
        report["stances"][stance] = {"premises": len(items), "key_points": rows}
    return report


def keypoints_report(
    driver: neo4j.Driver,
    topic: str,
    stance: str,
    k: int,
    embedder: object,
    *,
    database: str | None = None,
    progress: Progress | None = None,
) -> dict[str, Any] | None:
    """``argkb keypoints TOPIC --json`` and ``GET /api/v1/keypoints``: the key points of the
    topic's premises of ``stance`` (pro, con or both), at most ``k`` per stance; None when no
    argument concludes the topic (:func:`why_missing` then says why)."""
    premises = topic_premises(driver, topic, database=database)
    if not premises:
        return None
    stances = STANCES if stance == "both" else (stance,)
    return topic_key_points(premises, topic, stances, k, embedder, progress)
