"""How the commands shorten a text for a terminal line (``argkb.cli.app.one_line``)."""

from __future__ import annotations

from argkb.cli.app import one_line, printable

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


def test_control_characters_are_left_out() -> None:
    """From the sentence-pair audit (session 29): a premise's NUL, bell and escape sequences
    reached the terminal."""
    text = "Nuclear reactors\x07 are\x00 reliable.\x1b[2J They\x9b run\tall year."
    assert printable(text) == "Nuclear reactors are reliable. They run\tall year."
    assert one_line(text, 90) == "Nuclear reactors are reliable. They run all year."
    assert printable("Ядерная энергия 😀 ü\n") == "Ядерная энергия 😀 ü\n"


def test_counted_says_one_without_a_plural() -> None:
    from argkb.cli.app import counted

    assert [counted(n, "argument") for n in (0, 1, 2, 1234)] == [
        "0 arguments", "1 argument", "2 arguments", "1,234 arguments",
    ]  # fmt: skip


def test_a_key_point_is_shown_on_one_line_without_control_characters() -> None:
    from argkb.cli.keypoints import _flat

    assert _flat("Uniforms\x1b[31m cost\x07\nfamilies\tmoney\x00") == "Uniforms cost families money"
