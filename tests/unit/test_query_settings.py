"""QuerySettings refuses a value outside a setting's fixed choices (a review found that a typo in
``alignment`` was read as ``soft``, and an unknown ``representative`` as ``best``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from argkb.errors import ConfigError
from argkb.query.settings import DEFAULT, QuerySettings, choices_of


@pytest.mark.parametrize(
    ("name", "value"),
    [("alignment", "modle"), ("representative", "middle"), ("ranker", "bm25"), ("fusion", "sum")],
)
def test_a_value_outside_the_choices_is_refused(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=f"setting {name}: '{value}' is not one of"):
        changes: dict[str, Any] = {name: value}
        dataclasses.replace(DEFAULT, **changes)


def test_every_choice_is_accepted_and_other_settings_have_none() -> None:
    for name in ("ranker", "alignment", "representative", "fusion", "premise_clusters"):
        for value in choices_of(name):
            chosen: dict[str, Any] = {name: value}
            assert getattr(QuerySettings(**chosen), name) == value
    assert choices_of("claim_temperature") == () and choices_of("snippets") == ()
