"""Cluster names of unclustered units cannot be taken for stored clusters' names.

A claim without a stored cluster is a claim cluster of its own. It was named ``claim:<id>``,
which is also how ``argkb cluster`` names its claim clusters (``claim:<label>``), so whenever an
unclustered claim's internal id equalled a retrieved cluster's label, pf-icf counted the two as
one claim cluster: answers depended on the ids a load gave the nodes (found by
tests/integration/test_query_repeatable.py on a brand-new database)."""

from __future__ import annotations

from argkb.query.candidates import CandidateReader, EdgeColumns, own_cluster


def _edges() -> EdgeColumns:
    # premise 10 supports claim 4 (unclustered), premise 11 supports claim 7 (in claim:4)
    return EdgeColumns(
        claim=[4, 7], premise=[10, 11], premise_key=["p10", "p11"], stance=["pro", "pro"],
        stance_source=["data", "data"], argument=["a", "b"], cluster=["", ""],
        cf_pro=[1.0, 1.0], cf_con=[0.0, 0.0],
    )  # fmt: skip


def test_an_unclustered_claim_is_not_merged_into_the_stored_cluster_of_its_number() -> None:
    reader = CandidateReader.__new__(CandidateReader)  # edge_arrays reads nothing
    candidates = reader.edge_arrays(_edges(), {7: 0.5}, {7: "claim:4"})
    assert len(set(candidates.claim_cluster.tolist())) == 2
    assert own_cluster(4) != "claim:4"


def test_an_unclustered_retrieved_claim_keeps_its_own_claim_mass() -> None:
    rows = [
        {"claim": 4, "cluster": None, "members": [4]},
        {"claim": 7, "cluster": "claim:4", "members": [7, 9]},
    ]
    claims = [_Retrieved(4, 0.25), _Retrieved(7, 0.5)]
    reader = CandidateReader.__new__(CandidateReader)
    p_cluster, cluster_of_claim = reader.claim_mass(claims, None, rows)  # type: ignore[arg-type]
    assert p_cluster == {own_cluster(4): 0.25, "claim:4": 0.5}
    assert cluster_of_claim == {4: own_cluster(4), 7: "claim:4", 9: "claim:4"}


class _Retrieved:
    def __init__(self, id: int, p: float) -> None:
        self.id, self.p = id, p
