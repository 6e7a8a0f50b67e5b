"""Key point generation (argkb.keypoints.generate) on hand-made texts and hand-set vectors."""

from __future__ import annotations

import numpy as np

from argkb.keypoints.generate import candidates, select


def test_candidates_are_short_self_contained_statements() -> None:
    found = candidates(
        [
            ("a1", "Uniforms reduce bullying at school. It also saves money for families."),
            ("a2", "Do uniforms really help anyone at all?"),
            ("a3", "Bad."),
            ("a4", "uniforms reduce bullying at school"),  # the same words as a1's first sentence
            ("a5", " ".join(["word"] * 25) + "."),
        ]
    )
    assert found == [("Uniforms reduce bullying at school.", "a1")]


def _unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_select_covers_both_groups_and_skips_the_motion() -> None:
    args = [
        ("a1", "Uniforms cost parents far less money."),
        ("a2", "Uniforms save families money every year."),
        ("a3", "Uniforms stop bullying about clothes."),
        ("a4", "Uniforms reduce bullying among pupils."),
        ("a5", "We should keep school uniforms today."),
    ]
    vectors = {
        "School uniforms": _unit(0, 0, 0, 1),
        args[0][1]: _unit(1, 0, 0, 0.5),
        args[1][1]: _unit(1, 0.05, 0, 0.5),
        args[2][1]: _unit(0, 1, 0, 0.5),
        args[3][1]: _unit(0.05, 1, 0, 0.5),
        args[4][1]: _unit(1, 1, 0, 2.5),  # close to everything, and restates the topic (.87)
    }
    chosen = select(args, vectors, 3, topic="School uniforms")
    sources = [source for _, source in chosen]
    assert "a5" not in sources
    # one per group first; the second of a group is redundant (cosine > .8) and never chosen
    assert len(chosen) == 2
    assert {sources[0], sources[1]} & {"a1", "a2"} and {sources[0], sources[1]} & {"a3", "a4"}
    # without the topic filter the motion's restatement is the most central statement
    assert select(args, vectors, 1)[0][1] == "a5"
