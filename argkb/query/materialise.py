"""Stage 5: a ranker's entries become the answer's clusters, with texts, sources and a
representative (the longest text as Dumani et al. 2020, the premise nearest the centroid as
Dumani et al. 2019, or the highest PageRank; the hybrid and coreset rankers pick their own);
with snippets asked for (``QuerySettings.snippets``, or per query), each long premise's best two
sentences for the query."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from argkb.query.types import (
    Member,
    MemberSource,
    QueryResult,
    Ranked,
    ResultCluster,
    SnippetMember,
)
from argkb.sentences.snippet import snippets_from
from argkb.sentences.terms import tokenize

if TYPE_CHECKING:
    from argkb.query.candidates import CandidateReader
    from argkb.query.rankers.base import Gathered, Ranker


def materialise(
    reader: CandidateReader,
    ranker: Ranker,
    result: QueryResult,
    ranked: dict[str, list[Ranked]],
    gathered: Gathered,
    explain: bool = False,
    snippets: bool = False,
) -> None:
    """Fill ``result.pro`` / ``result.con``; with ``explain``, say what placed each cluster
    (:meth:`Ranker.describe`); with ``snippets``, give each member its snippet."""
    candidates = gathered.candidates
    assert candidates is not None
    ids = sorted({p for stance in ("pro", "con") for entry in ranked.get(stance, [])
                  for p in entry.premises})  # fmt: skip
    need_vectors = reader.settings.representative == "centroid"
    wanted = set(ids)
    arguments: dict[int, list[str]] = defaultdict(list)
    sources: dict[int, set[str]] = defaultdict(set)
    for p, aid, source in zip(candidates.premise.tolist(), candidates.argument,
                              candidates.stance_source, strict=True):  # fmt: skip
        arguments[p].append(aid)
        sources[p].add(source)
    # the members' sources are read alongside their texts: no extra round trip in sequence
    aids = sorted({aid for p in wanted for aid in arguments[p]})
    origins = reader.executor().submit(reader.read, "query/sources", aids=aids)
    sentences = (
        reader.executor().submit(reader.read, "sentences/snippets", ids=ids,
                             terms=sorted(set(tokenize(result.query))))
        if snippets else None
    )  # fmt: skip
    info = {r["id"]: r for r in reader.read("query/units", ids=ids, vectors=need_vectors)}
    row = sentences.result()[0] if sentences is not None else None
    snippet_of = snippets_from(result.query, row) if row is not None else None
    if row is not None and not row["sentences"] and ids:
        result.notes.append("no premise is split into sentences yet, so every premise is shown "
                            "whole: run 'argkb sentences' for snippets")  # fmt: skip
    source_of: dict[str, MemberSource] = {
        r["aid"]: MemberSource(r["sid"], r["title"], r["url"]) for r in origins.result()
    }
    claim_text: dict[int, str] = {}
    if explain and ranker.explains_claims:
        claim_ids = sorted(set(candidates.claim.tolist()))
        claim_text = {r["id"]: r["text"] for r in reader.read("query/units", ids=claim_ids,
                                                                vectors=False)}  # fmt: skip
    for stance in ("pro", "con"):
        clusters = []
        for rank, entry in enumerate(ranked.get(stance, []), start=1):
            premises = entry.premises
            members = [_member(info[p], arguments[p], sources[p], source_of, snippet_of)
                       for p in premises]  # fmt: skip
            if ranker.picks_representative:
                representative = members[0]
            else:
                representative = pick_representative(reader.settings.representative, premises,
                                                     members, info)  # fmt: skip
            detail = (
                ranker.describe(stance, entry, gathered, representative, claim_text)
                if explain else None
            )  # fmt: skip
            clusters.append(ResultCluster(rank, stance, entry.score, representative,
                                          len(members), members, detail))  # fmt: skip
        setattr(result, stance, clusters)


def _member(
    row: Any,
    aids: list[str],
    said: set[str],
    source_of: dict[str, MemberSource],
    snippet_of: dict[str, list[str]] | None,
) -> Member:
    """A premise of the answer; a :class:`SnippetMember` when snippets were asked for."""
    parts = (row["key"], row["text"], row["pagerank"], sorted(set(aids)), "+".join(sorted(said)),
             _sources(aids, source_of))  # fmt: skip
    if snippet_of is None:
        return Member(*parts)
    return SnippetMember(*parts, snippet=snippet_of.get(row["key"]))


def pick_representative(
    choice: str, premises: list[int], members: list[Member], info: dict[int, Any]
) -> Member:
    """The member that shows a cluster, by the ``representative`` setting."""
    import numpy as np

    if choice == "pagerank":
        return max(members, key=lambda m: (m.pagerank or 0.0, len(m.text)))
    if choice == "centroid":
        # the members with a vector (argkb embed may not have reached them all); else the longest
        embedded = [(m, info[p]["embedding"]) for p, m in zip(premises, members, strict=True)
                    if info[p]["embedding"]]  # fmt: skip
        if embedded:
            vectors = np.asarray([vector for _, vector in embedded], dtype=float)
            return embedded[int(np.argmax(vectors @ vectors.mean(axis=0)))][0]
    return max(members, key=lambda m: (len(m.text), m.key))


def _sources(aids: list[str], source_of: dict[str, MemberSource]) -> list[MemberSource]:
    """The distinct sources of a premise's arguments, by sid."""
    found = {source_of[a].sid: source_of[a] for a in aids if a in source_of}
    return [found[sid] for sid in sorted(found)]
