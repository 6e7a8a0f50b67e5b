"""How ``argkb query`` prints an answer (no database: the answer is built here)."""

from __future__ import annotations

import pytest

from argkb.cli.query import show_answer
from argkb.query.types import Member, MemberSource, QueryResult, ResultCluster

LONG = "Solar and wind power cost less than fossil fuel power almost everywhere in the world today."


def _member(text: str, source: str) -> Member:
    return Member(f"k:{text[:5]}", text, None, ["a1"], sources=[MemberSource("s", source)])


def _answer() -> QueryResult:
    alone = _member(LONG + " And more.", "Energy debate")
    pair = [_member(LONG, "Debate one"), _member("Renewables are cheaper.", "Debate two")]
    return QueryResult(
        query="We should abandon fossil fuels",
        ranker="hybrid",
        claims=[{"text": "We must stop using fossil fuels", "p": 0.75}],
        pro=[
            ResultCluster(1, "pro", 2.5, alone, 1, [alone]),
            ResultCluster(2, "pro", 2.0, pair[0], 2, pair),
        ],
    )


def test_a_one_premise_cluster_shows_its_text_once(capsys: pytest.CaptureFixture[str]) -> None:
    show_answer(_answer(), "pro", show_keys=False)
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == (
        "similar claims: We must stop using fossil fuels (P=0.75)  [P: share of the claim route]"
    )
    first = lines.index("PRO (2 clusters)") + 1
    assert lines[first : first + 6] == [
        f"  1. [2.500] {LONG} And more.",  # its own line shows it whole, and only it
        "     [source: Energy debate; stance to its claim from data]",
        f"  2. [2.000] {LONG}",
        "     2 premises:",
        "     - Solar and wind power cost less than fossil fuel power almost everywhere in ...  "
        "[source: Debate one; stance to its claim from data]",  # cut after a word, 80 at most
        "     - Renewables are cheaper.  [source: Debate two; stance to its claim from data]",
    ]


def test_show_keys_counts_premises_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    show_answer(_answer(), "pro", show_keys=True)
    out = capsys.readouterr().out
    assert "     1 premise: k:Solar\n" in out and "     2 premises: k:Solar, k:Renew\n" in out


def test_a_side_with_one_cluster_says_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    answer = _answer()
    answer.pro = answer.pro[:1]
    show_answer(answer, "both", show_keys=False)
    lines = capsys.readouterr().out.splitlines()
    assert "PRO (1 cluster)" in lines and "CON (0 clusters)" in lines
