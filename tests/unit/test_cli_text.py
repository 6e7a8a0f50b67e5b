"""How the commands shorten a text for a terminal line (``argkb.cli.app.one_line``)."""

from __future__ import annotations

from argkb.cli.app import one_line

LONG = (
    "Every year we wait makes the problem harder to solve. The carbon we emit today\n"
    "stays in the atmosphere for centuries, so delay locks in more warming."
)
CUT = "Every year we wait makes the problem harder to solve. The carbon we emit today stays ..."


def test_a_long_text_is_cut_after_a_whole_word_and_says_so() -> None:
    shown = one_line(LONG, 90)
    assert shown == CUT
    assert len(shown) <= 90


def test_a_short_text_is_whole_on_one_line() -> None:
    assert one_line("Burning fossil fuels\n  drives climate change.", 90) == (
        "Burning fossil fuels drives climate change."
    )
