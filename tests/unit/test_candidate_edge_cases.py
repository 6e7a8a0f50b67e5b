"""Candidates the papers' rankers meet on a half-prepared graph (found by a review, 2026-11-27):
premises of unknown stance only, premises without a vector yet, and a claim that opposes the
query. Pure NumPy; the one graph read is replaced by the edges it would return."""

from __future__ import annotations

import numpy as np
import pytest

from argkb.query.candidates import CandidateReader, EdgeColumns
from argkb.query.materialise import pick_representative
from argkb.query.rankers.pfidf import ClaimRouteState, claims_behind
from argkb.query.settings import QuerySettings
from argkb.query.types import Member
from argkb.retrieve.pfidf import EdgeTerms


def _edges(stances: list[str], claims: list[int] | None = None) -> EdgeColumns:
    n = len(stances)
    return EdgeColumns(
        claim=claims or [1] * n, premise=list(range(10, 10 + n)),
        premise_key=[f"k{i}" for i in range(n)], stance=stances, stance_source=["data"] * n,
        argument=[f"a{i}" for i in range(n)], cluster=[""] * n, cf_pro=[-1.0] * n,
        cf_con=[-1.0] * n,
    )  # fmt: skip


def _reader(settings: QuerySettings | None = None) -> CandidateReader:
    reader = CandidateReader.__new__(CandidateReader)  # nothing below reads the graph
    reader.settings = settings or QuerySettings()
    return reader


def test_claims_whose_premises_all_have_unknown_stance_are_no_candidates(monkeypatch) -> None:
    edges = _edges(["unknown", "unknown"])
    monkeypatch.setattr(EdgeColumns, "read", classmethod(lambda cls, *a, **k: edges))
    # pfidf and coreset answer "nothing found" instead of failing on an empty array
    assert _reader().claim_route({"claim:1": 1.0}, {1: "claim:1"}) is None


def test_a_claim_without_premises_on_a_side_takes_no_claim_mass() -> None:
    # claims 1 and 2 in one claim cluster; claim 2's only premise has unknown stance
    edges = _edges(["pro", "unknown"], claims=[1, 2])
    p_claim = CandidateReader.share_claim_mass({"claim:0": 1.0}, {1: "claim:0", 2: "claim:0"},
                                               edges)  # fmt: skip
    assert p_claim == {1: 1.0}


def test_premises_without_a_vector_are_clusters_of_their_own_in_query_clustering() -> None:
    reader = _reader(QuerySettings(premise_clusters="query"))
    vectors = np.asarray([[0.6, 0.8], [0.6, 0.8], [0.0, 0.0], [0.0, 0.0]], np.float32)
    reader.vectors = lambda ids: vectors  # type: ignore[method-assign]
    clustered = reader.cluster_candidates(_edges(["pro"] * 4))
    names = clustered.cluster
    assert names[0] == names[1] != ""  # the same vector: one cluster
    # without a vector: unclustered, so each is a premise cluster of its own
    labels = reader.edge_arrays(clustered, {1: 1.0}, {1: "claim:1"}).premise_cluster.tolist()
    assert labels[0] == labels[1]
    assert len({labels[0], labels[2], labels[3]}) == 3


def test_the_centroid_representative_skips_members_without_a_vector() -> None:
    members = [Member("a", "short", None, []), Member("b", "a longer text", None, [])]
    info = {1: {"embedding": [0.6, 0.8, 0.0]}, 2: {"embedding": None}}
    assert pick_representative("centroid", [1, 2], members, info).key == "a"
    # no member has one: the longest
    bare = {1: {"embedding": None}, 2: {"embedding": None}}
    assert pick_representative("centroid", [1, 2], members, bare).key == "b"


def test_an_explanation_names_the_claims_on_the_side_the_entry_shows() -> None:
    # one premise cluster; claim 1 supports the query, claim 2 (pro premise) opposes it, so its
    # premise is shown on the con side and must be explained by claim 2
    reader = _reader()
    candidates = reader.edge_arrays(_edges(["pro", "pro"], claims=[1, 2]), {1: 0.5, 2: 0.5},
                                    {1: "claim:1", 2: "claim:2"})  # fmt: skip
    candidates.premise_cluster[:] = 0
    aligned = np.asarray([1.0, 0.0])
    terms = EdgeTerms(np.ones(2), np.ones(2), np.ones(2), np.asarray([0.5, 0.5]))
    state = ClaimRouteState(terms, aligned, candidates.pro == (aligned >= 0.5))
    con = claims_behind("con", 0, candidates, state, {1: "for", 2: "against"})
    pro = claims_behind("pro", 0, candidates, state, {1: "for", 2: "against"})
    assert [c["claim"] for c in con["claims"]] == ["against"]
    assert [c["claim"] for c in pro["claims"]] == ["for"]


@pytest.mark.parametrize("stances", [["pro"], ["con"]])
def test_known_stances_keep_their_claim_mass(stances: list[str]) -> None:
    p_claim = CandidateReader.share_claim_mass({"claim:0": 0.4}, {1: "claim:0"}, _edges(stances))
    assert p_claim == {1: 0.4}
