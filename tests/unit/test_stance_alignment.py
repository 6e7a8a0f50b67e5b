"""The stance-alignment estimator on hand-written pairs (loads the bundled MiniLM model)."""

from __future__ import annotations

import pytest

from argkb.stance.alignment import StanceAligner

pytestmark = pytest.mark.slow

# (query, paraphrase of it, claim that negates it); written for this test, not from any dataset
CASES = [
    ("We should not abandon fossil fuels", "Fossil fuels should be kept",
     "We should abandon fossil fuels"),
    ("Nuclear power plants should be banned", "Nuclear power should be prohibited",
     "Nuclear power plants should not be banned"),
    ("School uniforms are a good idea", "Pupils ought to wear school uniforms",
     "School uniforms are a bad idea"),
    ("Cannabis should be legalized", "We should make cannabis legal",
     "Cannabis should stay illegal"),
    ("Homework does not help children learn", "Homework is useless for learning",
     "Homework helps children learn"),
]  # fmt: skip


@pytest.fixture(scope="module")
def aligner() -> StanceAligner:
    from argkb.embed.model import Embedder

    return StanceAligner(Embedder(cache=False))


@pytest.mark.parametrize(("query", "paraphrase", "negation"), CASES)
def test_negation_ranks_below_paraphrase(
    aligner: StanceAligner, query: str, paraphrase: str, negation: str
) -> None:
    p_paraphrase, p_negation = aligner(query, [paraphrase, negation])
    assert p_negation < p_paraphrase
    assert p_negation < 0.5


def test_the_issue_example_is_not_aligned(aligner: StanceAligner) -> None:
    (p,) = aligner("We should not abandon fossil fuels", ["We should abandon fossil fuels"])
    assert p < 0.2
    (same,) = aligner("We should abandon fossil fuels", ["We should abandon fossil fuels"])
    assert same > 0.8


def test_protocol_shape_and_prior(aligner: StanceAligner) -> None:
    from argkb.errors import ConfigError

    assert aligner("anything", []) == []
    values = aligner("We should abandon fossil fuels", ["Coal is cheap", "Cats are pets"])
    assert len(values) == 2 and all(0.0 <= v <= 1.0 for v in values)
    # a claim about something else: no evidence either way, so near the prior
    (unrelated,) = aligner("We should abandon fossil fuels", ["Cats are popular pets"])
    assert abs(unrelated - 0.5) < 0.15
    trusting = StanceAligner(aligner.embedder, prior=0.9)
    assert trusting("We should abandon fossil fuels", ["Cats are popular pets"])[0] > unrelated
    with pytest.raises(ConfigError, match="prior"):
        StanceAligner(aligner.embedder, prior=1.0)


def test_hard_decisions_follow_the_probability(aligner: StanceAligner) -> None:
    hard = StanceAligner(aligner.embedder, hard=True)
    query = "We should not abandon fossil fuels"
    claims = ["We should abandon fossil fuels", "Fossil fuels should be kept",
              "We should not abandon fossil fuels", "Cats are popular pets"]  # fmt: skip
    soft = aligner(query, claims)
    decided = hard(query, claims)
    assert decided == [1.0 if p >= 0.5 else 0.0 for p in soft]
    assert decided[0] == 0.0 and decided[2] == 1.0  # the negation flips, the query itself not


def test_a_superlative_opposes_the_antonym_of_its_base(aligner: StanceAligner) -> None:
    """On the demo corpus "Nuclear power is too dangerous" took "Nuclear power is one of the
    safest energy sources" (the claim route's largest share) as aligned: "safest" was not read
    as "safe", so its premises that nuclear power is safe were shown as PRO."""
    from argkb.stance.alignment import lexical_flip

    query = "Nuclear power is too dangerous"
    assert lexical_flip(query, "Nuclear power is one of the safest energy sources")[0] == 1.0
    assert lexical_flip("Nuclear power is safe", "Nuclear power is the safest source")[0] == -1.0
    assert lexical_flip("Trump is a good president", "Trump is the worst president")[0] == 1.0
    (p,) = aligner(query, ["Nuclear power is one of the safest energy sources"])
    assert p < 0.5
