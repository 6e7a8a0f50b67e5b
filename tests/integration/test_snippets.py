"""Snippets in the query engine's answer (``QuerySettings(snippets=True)``) on the demo corpus
and a real Neo4j: the default answer keeps its exact JSON; with snippets, the ranking is the
same and each premise of more than two sentences shows two adjacent sentences of its own."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from graphs import demo_graph

from argkb.jsonout import to_json

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
QUERY = "We should abandon fossil fuels"


@pytest.fixture(scope="module")
def embedder():
    from argkb.embed.model import Embedder

    return Embedder()


@pytest.fixture(scope="module")
def demo_db(db, embedder):
    return demo_graph(db, embedder)


def _answer(db, embedder, **settings: Any) -> dict[str, Any]:
    from argkb.query import QueryEngine
    from argkb.query.settings import DEFAULT

    chosen = dataclasses.replace(DEFAULT, **settings)
    result = QueryEngine(db, embedder, settings=chosen).query(QUERY, k=10)
    payload = json.loads(to_json(result))
    payload.pop("seconds")
    return payload


def _members(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for side in ("pro", "con") for c in payload[side]
            for m in (c["representative"], *c["members"])]  # fmt: skip


def _without_snippets(payload: dict[str, Any]) -> dict[str, Any]:
    copy = json.loads(json.dumps(payload))
    for member in _members(copy):
        member.pop("snippet")
    return copy


def test_without_sentences_snippets_are_null(demo_db, embedder) -> None:
    plain = _answer(demo_db, embedder)
    assert all("snippet" not in m for m in _members(plain)), "the default answer keeps its shape"
    asked = _answer(demo_db, embedder, snippets=True)
    assert all(m["snippet"] is None for m in _members(asked))
    said = [n for n in asked["notes"] if n not in plain["notes"]]
    assert said == ["no premise is split into sentences yet, so every premise is shown whole: "
                    "run 'argkb sentences' for snippets"]  # fmt: skip
    asked["notes"] = plain["notes"]
    assert _without_snippets(asked) == plain


@pytest.fixture(scope="module")
def split(demo_db):
    from argkb.sentences.store import split_premises

    split_premises(demo_db)
    return demo_db


def _sentences(db, key: str) -> list[str]:
    records, _, _ = db.execute_query(
        "MATCH (s:Sentence)-[:IN]->(:Unit {uid: $key}) RETURN s.text AS t ORDER BY s.position",
        key=key,
    )
    return [r["t"] for r in records]


def test_long_premises_show_two_adjacent_sentences(split, embedder) -> None:
    plain = _answer(split, embedder)
    asked = _answer(split, embedder, snippets=True)
    assert _without_snippets(asked) == plain, "snippets change no rank, member or score"
    assert all("snippet" not in m for m in _members(plain))
    shown = 0
    for member in _members(asked):
        sentences = _sentences(split, member["key"])
        if len(sentences) <= 2:
            assert member["snippet"] is None
            continue
        shown += 1
        first = sentences.index(member["snippet"][0])
        assert member["snippet"] == sentences[first : first + 2]
    assert shown, "the demo corpus answers with some premise of three sentences or more"


def test_argkb_query_snippets_flag_answers_as_the_library(split, embedder, neo4j_uri) -> None:
    from click.testing import CliRunner

    from argkb.cli import main

    args = ["query", QUERY, "--k", "10", "--json", "--uri", neo4j_uri]
    cli = CliRunner().invoke(main, [*args, "--snippets"])
    assert cli.exit_code == 0, cli.output
    payload = json.loads(cli.output)

    def shown(answer: dict[str, Any]) -> list[tuple[str, str, list[Any]]]:
        # the CLI embeds with ONNX, the fixture with torch: equal answers, cosines equal to 1e-6
        return [(side, c["representative"]["key"], [(m["key"], m["snippet"]) for m in c["members"]])
                for side in ("pro", "con") for c in answer[side]]  # fmt: skip

    assert shown(payload) == shown(_answer(split, embedder, snippets=True))
    text = CliRunner().invoke(main, ["query", QUERY, "--uri", neo4j_uri, "--snippets"]).output
    assert "[...]" in text  # a long premise is shown by its two sentences
    assert "[...]" not in CliRunner().invoke(main, ["query", QUERY, "--uri", neo4j_uri]).output
