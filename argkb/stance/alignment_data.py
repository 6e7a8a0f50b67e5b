"""Query-claim pairs with known alignment, built from the topics of the stance datasets.

For each topic claim ``t`` (an ArgKP motion, or a Webis-ArgQuality-20 question turned into a
claim by :func:`question_to_claim`) the set holds, in both directions (``t`` as the query and as
the claim):

* *paraphrases* (aligned): "I believe that t", "It is true that t", "In my view, t", and ``t``
  with its modal or verb replaced by a synonym (:data:`SYNONYMS`) where it has one;
* *negations* (opposed): :func:`argkb.stance.features.negate` of ``t``, "It is not true that t",
  "I do not believe that t", "It is wrong to say that t" (no negation word: only the embedding
  can see it) and ``t`` with "should" as "should never";
* *key points* (ArgKP only): the topic against each of its key points, aligned when the key
  point is pro. These are human-written and harder: a key point argues for or against the motion
  rather than restating it.

The templates are rules, so the negation and paraphrase sets measure that the estimator reads
these cues and does not confuse a restatement with its negation; the key points measure more.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from argkb.stance.features import negate

SYNONYMS = {
    "should": "ought to", "abandon": "give up", "ban": "prohibit", "abolish": "get rid of",
    "legalize": "make legal", "subsidize": "fund", "increase": "raise", "adopt": "introduce",
    "limit": "restrict", "end": "stop", "allowed": "permitted", "banned": "prohibited",
    "mandatory": "compulsory", "beneficial": "good", "harmful": "damaging",
}  # fmt: skip
_AUX = ("should", "must", "can", "will", "would", "could")


@dataclass(frozen=True, slots=True)
class AlignmentPair:
    query: str
    claim: str
    aligned: bool
    kind: str  # paraphrase, negation, key point
    topic: str


def _lower_first(text: str) -> str:
    first = text.split(" ", 1)[0]
    return text if first[:2].isupper() else text[:1].lower() + text[1:]


def question_to_claim(question: str) -> str | None:
    """``Should X be Y?`` -> ``X should be Y``; None for other shapes."""
    words = question.strip().rstrip("?").split()
    if len(words) > 2 and words[0].lower() in _AUX and "be" in [w.lower() for w in words[2:]]:
        j = [w.lower() for w in words].index("be", 2)
        subject = _lower_first(" ".join(words[1:j]))
        subject = subject[:1].upper() + subject[1:]
        return " ".join([subject, words[0].lower(), "be", *words[j + 1 :]])
    return None


def _synonym(text: str) -> str | None:
    words = text.split()
    for i, word in enumerate(words):
        swap = SYNONYMS.get(word.lower().strip(".,"))
        if swap:
            return " ".join([*words[:i], swap, *words[i + 1 :]])
    return None


def variants(topic: str) -> list[tuple[str, bool, str]]:
    """``(text, aligned, kind)`` of one topic claim (see the module docstring)."""
    inner = _lower_first(topic.rstrip("."))
    out = [
        (f"I believe that {inner}", True, "paraphrase"),
        (f"It is true that {inner}", True, "paraphrase"),
        (f"In my view, {inner}", True, "paraphrase"),
        (negate(topic), False, "negation"),
        (f"It is not true that {inner}", False, "negation"),
        (f"I do not believe that {inner}", False, "negation"),
        (f"It is wrong to say that {inner}", False, "negation"),
    ]
    synonym = _synonym(topic)
    if synonym:
        out.append((synonym, True, "paraphrase"))
    if re.search(r"\bshould\b", topic) and not re.search(r"\bshould not\b", topic):
        out.append((re.sub(r"\bshould\b", "should never", topic, count=1), False, "negation"))
    return out


def topic_pairs(topics: list[str]) -> list[AlignmentPair]:
    """Paraphrase and negation pairs of each topic, both directions."""
    pairs = []
    for topic in topics:
        for text, aligned, kind in variants(topic):
            pairs.append(AlignmentPair(topic, text, aligned, kind, topic))
            pairs.append(AlignmentPair(text, topic, aligned, kind, topic))
    return pairs


def argkp_topics(root: str | os.PathLike[str], split: str) -> tuple[list[str], list[AlignmentPair]]:
    """ArgKP topics of a split, and (topic, key point) pairs aligned when the key point is pro."""
    from argkb.loaders.argkp import load_split

    data = load_split(root, split)
    kps = [
        AlignmentPair(kp.topic, kp.text, kp.stance == "pro", "key point", kp.topic)
        for group in data.key_points.values()
        for kp in group
    ]
    return sorted(data.topics), kps


def argquality_topics(root: str | os.PathLike[str]) -> list[str]:
    """Webis-ArgQuality-20 questions that :func:`question_to_claim` can turn into claims."""
    from argkb.loaders.argquality import load_judgements

    topics = load_judgements(Path(root)).topics.values()
    claims = [question_to_claim(t.long_query) for t in topics]
    return sorted(c for c in claims if c)
