"""``word_count``: what ``Unit.words`` stores, as premise_edges.cypher counts without it."""

from __future__ import annotations

import pytest

from argkb.embed.store import word_count


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Cars pollute", 2),
        ("Cars\tpollute  the\r\nair", 4),
        ("  padded  ", 1),
        ("", 0),
        (None, 0),
        # Cypher's split cuts at spaces only (after line breaks and tabs become spaces), so a
        # no-break space or an em space joins two words, unlike str.split()
        ("non\u00a0breaking", 1),
        ("em\u2003space here", 2),
    ],
)
def test_word_count_cuts_where_the_cypher_fallback_does(text: str | None, words: int) -> None:
    assert word_count(text) == words
