"""How ``argkb keypoints``' report is put together from the generated key points
(:func:`argkb.keypoints.topic.topic_key_points`): prevalence, argument counts, examples and
sources, on hand-made premises and a hand-set outcome of the generation (the generation
itself is tested in test_kpa_generate.py)."""

from __future__ import annotations

import pytest

from argkb.keypoints import generate
from argkb.keypoints.generate import KeyPointOut
from argkb.keypoints.topic import Premise, topic_key_points

LONG = "A rushed exit causes energy shortages. Europe saw bills double in 2022."


def _source(sid: str) -> dict[str, str | None]:
    return {"sid": sid, "title": None, "url": None}


@pytest.fixture
def premises() -> dict[str, Premise]:
    return {
        "u1|con": Premise("u1", LONG, "con", ["a1"], [_source("s1")]),
        "u2|con": Premise(
            "u2",
            "Shortages of energy follow a quick exit.",
            "con",
            ["a2", "a3"],
            [_source("s2"), _source("s3")],
        ),
        "u3|con": Premise("u3", "Prices spike when supply is cut too fast.", "con", ["a4"]),
        "u4|con": Premise("u4", "Jobs in coal towns would vanish.", "con", ["a5"]),
    }


def test_examples_are_other_premises_than_the_key_points_own(premises, monkeypatch) -> None:
    """The key point is the first sentence of u1, which the model matches to it too: u1 is the
    key point's ``from``, not one of its two examples (it was shown as its own example)."""
    found = [
        KeyPointOut("A rushed exit causes energy shortages.", "u1|con",
                    ["u1|con", "u2|con", "u3|con"]),
        KeyPointOut("Jobs in coal towns would vanish.", "u4|con", ["u4|con"]),
    ]  # fmt: skip
    monkeypatch.setattr(generate, "key_points", lambda *args, **kwargs: found)
    report = topic_key_points(premises, "Leave fossil fuels", ("con",), 5, embedder=None)
    first, second = report["stances"]["con"]["key_points"]
    assert first["prevalence"] == 3 and first["arguments"] == 4  # u2 serves two arguments
    assert first["from"] == {"text": LONG, "sources": [_source("s1")]}
    assert [e["text"] for e in first["examples"]] == [
        premises["u2|con"].text,
        premises["u3|con"].text,
    ]
    assert first["examples"][0]["sources"] == [_source("s2"), _source("s3")]
    # a key point that is a whole premise has no example but itself: none
    assert second["prevalence"] == 1 and second["examples"] == []
