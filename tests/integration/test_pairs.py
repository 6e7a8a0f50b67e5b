"""Sentence-pair answers (``argkb query --pairs``, ``GET /api/v1/pairs``) on a real Neo4j with
the demo corpus: before ``argkb sentences`` a clear error, after it pairs of adjacent sentences
of one premise, one pair per premise, with the premise's key, stance and arguments as the graph
holds them, and scores that are the weighted features the graph's embeddings give."""

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
from argkb.sentences.clean import proper_sentence
from argkb.sentences.pipeline import BASELINE, DEFAULT, PairingMethod
from argkb.sentences.terms import tokenize

pytestmark = [pytest.mark.neo4j]
DEMO = Path(__file__).resolve().parents[2] / "examples" / "debates.json"
QUERY = "We should abandon fossil fuels"


@pytest.fixture(scope="module")
def embedder():
    from argkb.embed.model import Embedder

    return Embedder(cache=False)


@pytest.fixture(scope="module")
def loaded(db, embedder):
    """The demo corpus, loaded and embedded but not split into sentences."""
    from argkb.embed.store import embed_units

    init_schema(db)
    load_records(db, "argsme", [DEMO], reader("argsme")([DEMO]))
    embed_units(db, embedder)
    return db


@pytest.fixture(scope="module")
def split(loaded):
    from argkb.sentences.store import split_premises

    split_premises(loaded)
    loaded.execute_query("CALL db.awaitIndex('sentence_text', 60)")
    return loaded


@pytest.fixture(scope="module")
def app(loaded):
    """``argkb serve``'s application, with its query embedder (as ``argkb query --pairs``)."""
    from argkb.embed.model import Embedder
    from argkb.serve.app import create_app

    return create_app(loaded, Embedder.for_queries(cache=False))


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
def answer(split, embedder) -> PairsResult:
    return answer_pairs(split, QUERY, k=8, embedder=embedder, explain=True)


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
        if len(pair.sentences) == 1:  # alone only where no neighbour is a proper sentence
            texts = _sentence_texts(split, pair.unit)
            position = pair.sentences[0].position
            neighbours = [texts[i] for i in (position - 1, position + 1) if 0 <= i < len(texts)]
            assert not any(proper_sentence(t) for t in neighbours)
        for sentence in pair.sentences:  # the default drops what is not a sentence
            assert proper_sentence(sentence.text), sentence.text
    assert len({p.unit for p in answer.pairs}) == len(answer.pairs), "one pair per premise"


def _sentence_texts(driver, uid: str) -> list[str]:
    records, _, _ = driver.execute_query(
        "MATCH (s:Sentence)-[:IN]->(:Unit {uid: $uid}) RETURN s.text AS text ORDER BY s.position",
        uid=uid,
    )
    return [r["text"] for r in records]


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


def test_explain_says_what_scored_the_pair(split, answer, embedder) -> None:
    vector = embedder.embed([QUERY], use_cache=False)[0]
    for pair in answer.pairs:
        ex = pair.explain
        assert ex is not None and ex.model == "bm25"
        assert ex.weights == {n: w for n, w in DEFAULT.weights().items() if w}
        assert pair.score == pytest.approx(sum(w * ex.features[n] for n, w in ex.weights.items()),
                                           abs=1e-5)  # fmt: skip
        # BM25 over the best candidate's: one divisor for every pair
        assert 0.0 < ex.features["first"] <= 1.0
        assert ex.top_score / ex.features["first"] == pytest.approx(
            answer.pairs[0].explain.top_score / answer.pairs[0].explain.features["first"],
            rel=1e-4)  # fmt: skip
        # the topic feature is the cosine of the query with the premise's stored embedding
        records, _, _ = split.execute_query(
            "MATCH (u:Unit {uid: $uid}) RETURN u.embedding AS e", uid=pair.unit
        )
        stored = records[0]["e"]
        assert ex.features["topic"] == pytest.approx(float(sum(a * b for a, b in zip(
            vector, stored, strict=True))), abs=1e-4)  # fmt: skip
        assert 0.0 < ex.features["argument"] < 1.0
        assert ex.top_sentence == pair.sentences[pair.top].uid
        assert ex.top_position == pair.sentences[pair.top].position
        expected = {2: "next" if pair.top == 0 else "previous", 1: "single"}[len(pair.sentences)]
        assert ex.pairing == expected
    plain = answer_pairs(split, QUERY, k=8, embedder=embedder)
    assert all(p.explain is None for p in plain.pairs)
    assert [p.unit for p in plain.pairs] == [p.unit for p in answer.pairs]


def test_the_baseline(split) -> None:
    baseline = answer_pairs(split, QUERY, k=8, settings=BASELINE, explain=True)  # no model
    scores = [p.score for p in baseline.pairs]
    assert scores == sorted(scores, reverse=True)
    # no re-ranking: the score is the first stage's, over the best sentence's
    assert baseline.pairs[0].score == 1.0
    assert all(p.explain and p.score == pytest.approx(p.explain.features["first"])
               and p.explain.weights == {"first": 1.0} for p in baseline.pairs)  # fmt: skip
    assert baseline.pipeline["distinct"] is False and baseline.pairing == "next sentence"
    with pytest.raises(ValueError, match="embedding model"):
        answer_pairs(split, QUERY, k=8)


@pytest.mark.parametrize(("pairing", "how"), [("cosine", "similar"), ("nsp", "predicted")])
def test_pairing_by_a_model(split, embedder, pairing: PairingMethod, how: str) -> None:
    import numpy as np

    from argkb.sentences.next_sentence import load

    settings = dataclasses.replace(DEFAULT, pairing=pairing)
    found = answer_pairs(split, QUERY, k=8, settings=settings, embedder=embedder, explain=True)
    default = answer_pairs(split, QUERY, k=8, embedder=embedder, explain=True)
    # the same top sentences as the default: pairing changes only the partner
    assert [p.explain.top_sentence for p in found.pairs if p.explain] == [
        p.explain.top_sentence for p in default.pairs if p.explain]  # fmt: skip
    model = load()
    for pair in found.pairs:  # two sentences of the pair's own premise, in text order
        texts = _sentence_texts(split, pair.unit)
        assert [s.text for s in pair.sentences] == [texts[s.position] for s in pair.sentences]
        assert [s.position for s in pair.sentences] == sorted(s.position for s in pair.sentences)
        assert pair.explain and pair.explain.pairing == (how if len(pair.sentences) == 2
                                                         else "single")  # fmt: skip
        if len(pair.sentences) < 2:
            continue
        # the partner is the best-scored proper sentence of the premise
        top = pair.sentences[pair.top]
        others = [(i, t) for i, t in enumerate(texts) if i != top.position and proper_sentence(t)]
        vectors = embedder.embed([top.text] + [t for _, t in others], use_cache=False)
        mine, rest = vectors[0], np.asarray(vectors[1:])
        if pairing == "cosine":
            scores = rest @ mine
        else:
            after = np.asarray([i > top.position for i, _ in others])
            repeated = np.repeat(mine[None, :], len(others), 0)
            scores = np.where(after, model.probabilities(repeated, rest),
                              model.probabilities(rest, repeated))  # fmt: skip
        partner = pair.sentences[1 - pair.top].position
        best = max(scores)
        assert scores[[i for i, _ in others].index(partner)] == pytest.approx(best, abs=1e-4)


def test_cli_json_and_text(split, answer, neo4j_uri: str) -> None:
    result = _cli(neo4j_uri, "--k", "8", "--json", "--explain")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert set(payload) == {f.name for f in dataclasses.fields(PairsResult)}
    assert set(payload["pairs"][0]) == {f.name for f in dataclasses.fields(PairAnswer)}
    assert set(payload["pairs"][0]["explain"]) == {"model", "top_sentence", "top_position",
                                                   "top_score", "features", "weights",
                                                   "pairing"}  # fmt: skip
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
    # the stance and conclusion first, the unit key (for Neo4j Browser) last
    assert text.output.count("; premise of '") == 3 and text.output.count("  [unit t:") == 3


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


def test_sentence_features_read_the_stored_vectors(split, embedder) -> None:
    """Last in this module: embeds the sentences. Without vectors the sentence features are 0;
    after ``embed_sentences`` the sentence's topic feature is its stored vector's cosine with
    the query and its argumentativeness a probability."""
    import numpy as np

    from argkb.embed.store import embed_sentences

    settings = dataclasses.replace(DEFAULT, sentence_topic=0.5, sentence_argument=0.5)
    before = answer_pairs(split, QUERY, k=5, settings=settings, embedder=embedder, explain=True)
    assert all(p.explain and p.explain.features["sentence_topic"] == 0.0 for p in before.pairs)
    embed_sentences(split, embedder)
    after = answer_pairs(split, QUERY, k=5, settings=settings, embedder=embedder, explain=True)
    vector = embedder.embed([QUERY], use_cache=False)[0]
    for pair in after.pairs:
        ex = pair.explain
        assert ex is not None
        (row,) = split.execute_query(
            "MATCH (s:Sentence {uid: $uid}) RETURN s.embedding AS e", uid=ex.top_sentence
        ).records
        assert ex.features["sentence_topic"] == pytest.approx(float(np.dot(vector, row["e"])),
                                                              abs=1e-4)  # fmt: skip
        assert 0.0 < ex.features["sentence_argument"] < 1.0
        assert pair.score == pytest.approx(sum(w * ex.features[n] for n, w in ex.weights.items()),
                                           abs=1e-5)  # fmt: skip
