"""The argumentativeness prior: its server-side form equals the logistic regression it was fitted
as, and the hybrid's ``argument`` route moves a non-argument below an argument."""

from __future__ import annotations

import numpy as np

from argkb.query.rankers.hybrid_fusion import Fusion, SidePool, fuse_pool
from argkb.retrieve import argument_prior
from argkb.retrieve.argument_prior import ArgumentPrior


def test_logits_from_the_servers_similarity_equal_the_dot_product() -> None:
    rng = np.random.default_rng(7)
    w = rng.normal(size=16)
    x = rng.normal(size=(5, 16))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    words = np.asarray([1, 5, 40, 200, 0])
    prior = ArgumentPrior(tuple(w / np.linalg.norm(w)), float(np.linalg.norm(w)), 0.3, -1.2)
    similarity = (1.0 + x @ (w / np.linalg.norm(w))) / 2.0  # what Neo4j reports
    expected = x @ w + 0.3 * np.log1p(words) - 1.2
    assert np.allclose(prior.logits(similarity, words), expected)
    # no embedding (-2 from the query): the lowest logit the length allows
    assert prior.logits([-2.0], [5])[0] == -prior.norm + 0.3 * np.log1p(5) - 1.2


def test_the_shipped_prior_is_a_unit_direction_of_the_model_dimension() -> None:
    prior = argument_prior.load()
    assert len(prior.direction) == 384
    assert abs(np.linalg.norm(prior.direction) - 1.0) < 1e-6
    assert prior.norm > 0


def _pool(argument: np.ndarray | None) -> SidePool:
    n = 3
    return SidePool(
        premises=[10, 11, 12],
        labels=np.arange(n),
        cluster_p=np.zeros(n),
        own=np.zeros(n),
        bm25=np.asarray([2.0, 1.9, 0.5]),
        found_bm25=np.ones(n, bool),
        cosine=np.asarray([0.50, 0.49, 0.10]),
        vector_hit=np.ones(n, bool),
        words=np.asarray([8, 30, 12]),
        argument=argument,
    )


def test_the_argument_route_moves_a_non_argument_down() -> None:
    # candidate 0 ("I accept this debate") wins both direct routes by a hair
    prior = np.asarray([-3.0, 2.0, 0.0])
    without = fuse_pool(_pool(prior), Fusion(0, 1, 1, 10), k=3)
    assert [e.members[0] for e in without] == [0, 1, 2]
    # k 10: 0 gets 1/11 + 1/11 + 2/13 = .3357, 1 gets 1/12 + 1/12 + 2/11 = .3485
    with_route = fuse_pool(_pool(prior), Fusion(0, 1, 1, 10, argument=2), k=3)
    assert [e.members[0] for e in with_route] == [1, 0, 2]
    assert with_route[0].explain["routes"]["argument"]["rank"] == 1
    # weight 0: the route is read but adds nothing, so the order is the old one
    assert [e.members[0] for e in fuse_pool(_pool(None), Fusion(0, 1, 1, 10), k=3)] == [0, 1, 2]
