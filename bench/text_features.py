"""Features read from the recorded candidates' texts and embeddings, for bench/linear_extras.py.

Each ``name(study, pools)`` returns ``add(features, pool)``, which puts one more premise feature
into the linear fusion's features of a recorded pool (:func:`bench.linear_extras._extra_feature`
describes the replay). The recordings are ``bench/study_recorder.py``'s pickles in ``study``.
"""

from __future__ import annotations

import math
import pickle
import re
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np


def recording(study: Path, name: str) -> dict[str, Any]:
    """The raw recording of benchmark ``name`` (``bench/study_recorder.py``): qid -> record."""
    with (study / f"{name}.pkl").open("rb") as handle:
        return dict(pickle.load(handle))


META_TALK = re.compile(
    r"\b(rounds?|accept(s|ed|ing|ance)?|thanks?|thank you|votes?|voters?|voting|forfeit(s|ed)?|"
    r"good luck|opponent'?s?|rebuttals?|instigator|contender|burden of proof|resolution|"
    r"debate)\b",
    re.IGNORECASE,
)


def meta_talk(study: Path, pools: dict[str, Any]) -> Any:
    """``meta``: the share of each candidate's sentences (argkb's splitter) that match
    :data:`META_TALK`."""
    from argkb.sentences.split import split_sentences

    values: dict[int, Any] = {}
    for name, by_query in pools.items():
        raw = recording(study, name)
        share: dict[str, float] = {}
        for qid, record in raw.items():
            for side, (pool, _) in by_query[qid].items():
                texts = record["sides"][side]["texts"]
                for t in texts:
                    if t not in share:
                        parts = split_sentences(t) or []
                        hits = sum(1 for x in parts if META_TALK.search(x.text))
                        share[t] = hits / len(parts) if parts else 0.0
                values[id(pool)] = np.asarray([share[t] for t in texts])
    return lambda features, pool: {**features, "meta": values[id(pool)]}


def best_sentence(study: Path, pools: dict[str, Any]) -> Any:
    """``sentence``: each candidate's best sentence by BM25 for the query (k1 1.2, b .75, argkb's
    splitter and terms; collection statistics over the sentences of the benchmark's recorded
    candidates, an approximation of the sentence_text index), over the query's best."""
    from argkb.sentences.split import split_sentences
    from argkb.sentences.terms import tokenize

    values: dict[int, Any] = {}
    for name, by_query in pools.items():
        raw = recording(study, name)
        texts = sorted({t for r in raw.values() for side in r["sides"].values()
                        for t in side["texts"]})  # fmt: skip
        sentences = {t: [tokenize(x.text) for x in split_sentences(t)] for t in texts}
        every = [d for ds in sentences.values() for d in ds]
        df = Counter(term for d in every for term in set(d))
        mean = sum(map(len, every)) / max(1, len(every))
        idf = {term: math.log(1 + (len(every) - c + 0.5) / (c + 0.5)) for term, c in df.items()}

        def bm25(terms: set[str], doc: list[str], idf: dict[str, float] = idf,
                 mean: float = mean) -> float:  # fmt: skip
            tf = Counter(doc)
            return sum(idf[t] * tf[t] * 2.2 / (tf[t] + 1.2 * (0.25 + 0.75 * len(doc) / mean))
                       for t in terms if tf[t])  # fmt: skip

        for qid, record in raw.items():
            terms = set(tokenize(record["text"]))
            side_values = {side: np.asarray([max((bm25(terms, d) for d in sentences[t]),
                                                 default=0.0) for t in s["texts"]])
                           for side, s in record["sides"].items()}  # fmt: skip
            top = max((float(v.max()) for v in side_values.values() if len(v)), default=0.0)
            for side, (pool, _) in by_query[qid].items():
                values[id(pool)] = side_values[side] / top if top > 0 else side_values[side]
    return lambda features, pool: {**features, "sentence": values[id(pool)]}


_CONTRACTED = frozenset(
    ("doesn", "don", "isn", "aren", "wasn", "weren", "shouldn", "wouldn", "couldn", "won", "didn",
     "hasn", "haven")
)  # fmt: skip


def light_stem(term: str) -> str:
    """``term`` without one plural or verb ending and a final e (a rough stand-in for the
    English analyzer's Porter stemmer: bans, banned, banning -> ban; taxes -> tax; policies ->
    policy; increase, increased -> increas)."""
    stem = _strip_ending(term)
    return stem[:-1] if stem.endswith("e") and len(stem) > 4 else stem


def _strip_ending(term: str) -> str:
    if len(term) <= 3 or term.endswith("ss"):
        return term
    if term.endswith("ies") and len(term) > 4:
        return term[:-3] + "y"
    for suffix in ("ing", "ed"):
        if term.endswith(suffix) and len(term) - len(suffix) >= 3:
            stem = term[: -len(suffix)]
            doubled = stem[-1] == stem[-2] and stem[-1] not in "lsz"
            return stem[:-1] if doubled else stem
    if term.endswith("es") and term[:-2].endswith(("s", "x", "z", "ch", "sh")):
        return term[:-2]
    return term[:-1] if term.endswith("s") else term


def content_stems(text: str) -> set[str]:
    """The stems of ``text``'s words, stop words, contraction stubs and single letters out."""
    from argkb.keypoints.match import STOPWORDS
    from argkb.sentences.terms import tokenize

    return {light_stem(t) for t in tokenize(text.replace("'s", ""))
            if len(t) > 1 and t not in STOPWORDS and t not in _CONTRACTED}  # fmt: skip


def term_coverage(study: Path, pools: dict[str, Any]) -> Any:
    """``coverage``: the share of the query's distinct content terms (stop words out, one ending
    stripped) that occur in the candidate's text; BM25 sums over terms, so a post that repeats
    one query word can outscore one that has them all."""
    values: dict[int, Any] = {}
    for name, by_query in pools.items():
        for qid, record in recording(study, name).items():
            wanted = content_stems(record["text"])
            for side, (pool, _) in by_query[qid].items():
                texts = record["sides"][side]["texts"]
                shares = [len(wanted & content_stems(t)) / len(wanted) if wanted else 0.0
                          for t in texts]  # fmt: skip
                values[id(pool)] = np.asarray(shares)
    return lambda features, pool: {**features, "coverage": values[id(pool)]}


def best_sentence_cosine(study: Path, pools: dict[str, Any]) -> Any:
    """``maxsent``: each candidate's best sentence by cosine to the query (argkb's splitter, the
    default model, each sentence embedded alone), where ``cosine`` compares the query with the
    mean of the sentences' vectors (``argkb embed --long-text sentences``): one sentence on the
    query's issue in a long post counts in full."""
    from argkb.embed.model import Embedder
    from argkb.sentences.split import split_sentences

    embedder = Embedder()
    values: dict[int, Any] = {}
    for name, by_query in pools.items():
        raw = recording(study, name)
        texts = sorted({t for r in raw.values() for side in r["sides"].values()
                        for t in side["texts"]})  # fmt: skip
        parts = {t: [x.text for x in split_sentences(t) or []] or [t] for t in texts}
        every = sorted({x for ps in parts.values() for x in ps})
        vectors = dict(zip(every, embedder.embed(every), strict=True))
        for qid, record in raw.items():
            query = np.asarray(record["vector"], np.float32)
            best = {t: max(float(vectors[x] @ query) for x in parts[t])
                    for s in record["sides"].values() for t in s["texts"]}  # fmt: skip
            for side, (pool, _) in by_query[qid].items():
                values[id(pool)] = np.asarray([best[t] for t in record["sides"][side]["texts"]])
    return lambda features, pool: {**features, "maxsent": values[id(pool)]}
