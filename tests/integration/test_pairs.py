"""Sentence-pair answers (``argkb query --pairs``, ``GET /api/v1/pairs``) on a real Neo4j with
the demo corpus: before ``argkb sentences`` a clear error, after it pairs of adjacent sentences
of one premise, with the premise's key, stance and arguments as the graph holds them."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader
from argkb.sentences.answer import PairAnswer, PairsResult, answer_pairs
from argkb.sentences.terms import tokenize

pytestmark = [pytest.mark.neo4j]
DEMO = Path(__file__).resolve().parents[2] / "examples" / "debates.json"
QUERY = "We should abandon fossil fuels"


@pytest.fixture(scope="module")
def loaded(db):
    """The demo corpus, loaded but not split into sentences."""
    init_schema(db)
    load_records(db, "argsme", [DEMO], reader("argsme")([DEMO]))
    return db


@pytest.fixture(scope="module")
def split(loaded):
    from argkb.sentences.store import split_premises

    split_premises(loaded)
    loaded.execute_query("CALL db.awaitIndex('sentence_text', 60)")
    return loaded


@pytest.fixture(scope="module")
def app(loaded):
    """``argkb serve``'s application (no query is embedded here: the embedder stays unloaded)."""
    from argkb.embed.model import Embedder
    from argkb.serve.app import create_app

    return create_app(loaded, Embedder(cache=False))


def _client(app):
    from fastapi.testclient import TestClient

    return TestClient(app, raise_server_exceptions=False)


def _cli(neo4j_uri: str, *args: str) -> Any:
    return CliRunner().invoke(main, ["query", QUERY, "--pairs", *args],
                              env={"NEO4J_URI": neo4j_uri})  # fmt: skip


# -- before `argkb sentences` (these run first: `split` is not built yet) ----------------------


def test_cli_without_sentences_says_what_to_run(loaded, neo4j_uri: str) -> None:
    result = _cli(neo4j_uri)
    assert result.exit_code == 1
    assert "run 'argkb sentences'" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_api_without_sentences_is_a_json_error(app) -> None:
    response = _client(app).get("/api/v1/pairs", params={"q": QUERY})
    assert response.status_code == 409
    body = response.json()
    assert body["error"] == "cannot_answer" and "argkb sentences" in body["message"]


# -- after it ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def answer(split) -> PairsResult:
    return answer_pairs(split, QUERY, k=8, explain=True)


def _graph_premise(driver, uid: str) -> dict[str, Any]:
    """The premise's text, its sentences in order, and its stances, read independently."""
    records, _, _ = driver.execute_query(
        "MATCH (u:Unit {uid: $uid}) "
        "OPTIONAL MATCH (s:Sentence)-[:IN]->(u) WITH u, s ORDER BY s.position "
        "WITH u, collect(s.uid) AS sentences "
        "OPTIONAL MATCH (u)-[e:PREMISE_OF]->(a:Argument) "
        "RETURN u.text AS text, sentences, collect(e.stance) AS stances, collect(a.aid) AS aids",
        uid=uid,
    )
    return records[0].data()


def test_pairs_are_adjacent_sentences_of_one_premise(split, answer) -> None:
    assert answer.message is None and 0 < len(answer.pairs) <= 8
    two = [p for p in answer.pairs if len(p.sentences) == 2]
    assert two, "the demo corpus has fossil-fuel premises of several sentences"
    for pair in answer.pairs:
        premise = _graph_premise(split, pair.unit)
        uids = [s.uid for s in pair.sentences]
        # the sentences are consecutive sentences of the pair's own premise, in text order
        start = premise["sentences"].index(uids[0])
        assert premise["sentences"][start : start + len(uids)] == uids
        assert [s.position for s in pair.sentences] == list(range(start, start + len(uids)))
        for sentence in pair.sentences:
            assert sentence.text in premise["text"]
        if len(pair.sentences) == 1:  # alone only where the premise has no other sentence
            assert len(premise["sentences"]) == 1


def test_pairs_match_the_query_and_are_ranked(answer) -> None:
    query_terms = set(tokenize(QUERY))
    for pair in answer.pairs:
        top = pair.sentences[pair.top]
        assert query_terms & set(tokenize(top.text)), top.text
    scores = [p.score for p in answer.pairs]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0
    assert [p.rank for p in answer.pairs] == list(range(1, len(answer.pairs) + 1))
    used = [s.uid for p in answer.pairs for s in p.sentences]
    assert len(used) == len(set(used)), "a sentence is in one pair at most"


def test_pairs_carry_the_premises_stance_and_arguments(split, answer) -> None:
    for pair in answer.pairs:
        premise = _graph_premise(split, pair.unit)
        assert sorted(a.aid for a in pair.arguments) == sorted(premise["aids"])
        known = {s for s in premise["stances"] if s in ("pro", "con")}
        expected = None if not known else (known.pop() if len(known) == 1 else "mixed")
        assert pair.stance == expected
    assert {p.stance for p in answer.pairs} & {"pro", "con"}
    conclusions = {a.conclusion for p in answer.pairs for a in p.arguments}
    assert QUERY in conclusions


def test_explain_says_what_scored_the_pair(split, answer) -> None:
    for pair in answer.pairs:
        ex = pair.explain
        assert ex is not None and ex.model == "bm25" and ex.top_score == pair.score
        assert ex.top_sentence == pair.sentences[pair.top].uid
        assert ex.top_position == pair.sentences[pair.top].position
        expected = {2: "next" if pair.top == 0 else "previous", 1: "single"}[len(pair.sentences)]
        assert ex.pairing == expected
    plain = answer_pairs(split, QUERY, k=8)
    assert all(p.explain is None for p in plain.pairs)
    assert [p.unit for p in plain.pairs] == [p.unit for p in answer.pairs]


def test_cli_json_and_text(split, answer, neo4j_uri: str) -> None:
    result = _cli(neo4j_uri, "--k", "8", "--json", "--explain")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert set(payload) == {f.name for f in dataclasses.fields(PairsResult)}
    assert set(payload["pairs"][0]) == {f.name for f in dataclasses.fields(PairAnswer)}
    assert set(payload["pairs"][0]["explain"]) == {"model", "top_sentence", "top_position",
                                                   "top_score", "pairing"}  # fmt: skip
    library = [[s.uid for s in p.sentences] for p in answer.pairs]
    assert [[s["uid"] for s in p["sentences"]] for p in payload["pairs"]] == library

    text = _cli(neo4j_uri, "--k", "3", "--explain")
    assert text.exit_code == 0, text.output
    lines = text.output.splitlines()
    assert lines[0] == f"query: {QUERY}"
    first = answer.pairs[0]
    assert any(line.startswith("  1. [") and first.unit in line for line in lines)
    assert any(line.startswith("     > ") for line in lines)
    assert "paired with the" in text.output
    assert text.output.count("] unit ") == 3


def test_api_answers_as_the_cli(split, app, neo4j_uri: str) -> None:
    client = _client(app)
    response = client.get("/api/v1/pairs", params={"q": QUERY, "k": 5, "explain": "true"})
    assert response.status_code == 200, response.text
    body = response.json()
    cli = json.loads(_cli(neo4j_uri, "--k", "5", "--json", "--explain").stdout)
    assert {k: v for k, v in body.items() if k != "seconds"} == {
        k: v for k, v in cli.items() if k != "seconds"
    }
    assert len(body["pairs"]) == 5
    for bad in ({"q": "  "}, {"q": QUERY, "k": 0}, {"q": QUERY, "k": 101}, {}):
        wrong = client.get("/api/v1/pairs", params=bad)
        assert wrong.status_code == 422 and wrong.json()["error"] == "invalid_parameter"


def test_api_pairs_needs_the_token(split) -> None:
    from argkb.embed.model import Embedder
    from argkb.serve.app import create_app

    with _client(create_app(split, Embedder(cache=False), token="s3cret")) as guarded:
        assert guarded.get("/api/v1/pairs", params={"q": QUERY}).status_code == 401
        ok = guarded.get("/api/v1/pairs", params={"q": QUERY},
                         headers={"Authorization": "Bearer s3cret"})  # fmt: skip
        assert ok.status_code == 200 and ok.json()["pairs"]


def test_api_model_mirrors_the_dataclass() -> None:
    from argkb.sentences import answer as lib
    from argkb.serve import models

    for dataclass, model in (
        (lib.PairsResult, models.Pairs),
        (lib.PairAnswer, models.PairAnswer),
        (lib.PairSentence, models.PairSentence),
        (lib.PairArgument, models.PairArgument),
        (lib.PairExplain, models.PairExplain),
    ):
        assert [f.name for f in dataclasses.fields(dataclass)] == list(model.model_fields)
