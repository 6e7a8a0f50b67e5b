"""``cluster_max_words``: in the hybrid ranker a premise longer than the limit is shown under a
label of its own, while its claim-route evidence stays its premise cluster's."""

from __future__ import annotations

import numpy as np

from argkb.query.candidates import Candidates, EdgeColumns
from argkb.query.rankers.hybrid import _EdgeExtras


def _graph() -> tuple[EdgeColumns, Candidates, _EdgeExtras]:
    # premises 10 (300 words) and 11 (20 words) in one premise cluster, both pro claim 1
    edges = EdgeColumns(
        claim=[1, 1], premise=[10, 11], premise_key=["a", "b"], stance=["pro", "pro"],
        stance_source=["data", "data"], argument=["x", "y"], cluster=["c", "c"],
        cf_pro=[1.0, 1.0], cf_con=[0.0, 0.0],
    )  # fmt: skip
    candidates = Candidates(
        premise=np.asarray([10, 11]), claim=np.asarray([1, 1]), claim_cluster=np.asarray([0, 0]),
        premise_cluster=np.asarray([0, 0]), pro=np.asarray([True, True]),
        cf_pro=np.asarray([1.0, 1.0]), cf_con=np.asarray([0.0, 0.0]),
        p_claim=np.asarray([1.0, 1.0]), argument=["x", "y"], cluster_names=["c"],
        stance_source=["data", "data"], key_of={10: "a", 11: "b"},
    )  # fmt: skip
    extras = _EdgeExtras(score=[0.9, 0.8], words=[300, 20], prior_projection=[None, None],
                         prior=None, claim_score={1: 0.7})  # fmt: skip
    return edges, candidates, extras


def test_a_long_premise_gets_a_label_of_its_own() -> None:
    edges, candidates, extras = _graph()
    columns = extras.arrange(edges, candidates, {10, 11}, alone=100)
    long, short = columns.position[10], columns.position[11]
    assert columns.cluster_of[long] == columns.cluster_of[short] == 0  # evidence: the cluster's
    assert columns.group_of[short] == 0
    assert columns.group_of[long] == 1 and candidates.cluster_names[1] == "alone:a"


def test_without_a_limit_every_premise_is_shown_in_its_cluster() -> None:
    edges, candidates, extras = _graph()
    columns = extras.arrange(edges, candidates, {10, 11}, alone=None)
    assert columns.group_of.tolist() == columns.cluster_of.tolist() == [0, 0]
    assert candidates.cluster_names == ["c"]
    columns = extras.arrange(edges, candidates, {10, 11}, alone=300)  # 300 is not over 300
    assert columns.group_of.tolist() == [0, 0]
