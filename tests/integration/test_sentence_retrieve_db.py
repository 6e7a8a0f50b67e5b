"""Sentence retrieval on a real Neo4j: the term statistics ``argkb sentences`` keeps equal a
recount of the stored sentences (after a first split, a changed text and ``--all``), BM25 and
DirichletLM rank sentences of the ``sentence_text`` index, and each top sentence is paired with
the next one of its premise."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader
from argkb.sentences.retrieve import (
    TermStats,
    dirichlet_lm,
    rank_sentences,
    read_term_stats,
    retrieve_pairs,
)
from argkb.sentences.store import split_premises
from argkb.sentences.terms import tokenize

pytestmark = [pytest.mark.neo4j]

PREMISES = [
    "Nuclear power is cheap. It also emits no carbon. Waste stays a problem.",
    "Solar panels get cheaper every year. Nuclear power plants take a decade to build.",
    "Wind farms are quiet. Birds are rarely harmed.",
    "Taxes on carbon work. They cut emissions where they are tried and nuclear power helps.",
]


@pytest.fixture(scope="module")
def graph(db, tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("retrieve") / "args.jsonl"
    lines = [
        {"id": f"r{i}", "conclusion": f"Energy claim {i}",
         "premises": [{"text": text, "stance": "pro"}]}
        for i, text in enumerate(PREMISES)
    ]  # fmt: skip
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    init_schema(db)
    load_records(db, "jsonl", [path], reader("jsonl")([path]))
    split_premises(db)
    db.execute_query("CALL db.awaitIndex('sentence_text', 60)")
    return db


def recount(driver) -> tuple[Counter[str], int, int]:
    texts = [r["t"] for r in driver.execute_query("MATCH (s:Sentence) RETURN s.text AS t").records]
    terms = [t for text in texts for t in tokenize(text)]
    return Counter(terms), len(terms), len(texts)


def stored(driver) -> tuple[Counter[str], int, int]:
    rows = driver.execute_query(
        "MATCH (x:SentenceTerm) WHERE x.cf > 0 RETURN x.term AS t, x.cf AS cf"
    )
    stats = driver.execute_query("MATCH (s:SentenceStats) RETURN s.tokens AS t, s.sentences AS n")
    (only,) = stats.records
    return Counter({r["t"]: r["cf"] for r in rows.records}), only["t"], only["n"]


def test_term_statistics_equal_a_recount_through_changes(graph) -> None:
    assert stored(graph) == recount(graph)
    graph.execute_query(
        "MATCH (u:Premise) WHERE u.text STARTS WITH 'Wind' SET u.text = 'Wind is free. Wind wins.'"
    )
    assert split_premises(graph).premises == 1
    assert stored(graph) == recount(graph)
    split_premises(graph, all_units=True)
    assert stored(graph) == recount(graph)
    graph.execute_query(
        "MATCH (u:Premise) WHERE u.text STARTS WITH 'Wind' "
        "SET u.text = 'Wind farms are quiet. Birds are rarely harmed.'"
    )
    split_premises(graph)
    assert stored(graph) == recount(graph)


def test_bm25_pairs_the_top_sentence_with_the_next(graph) -> None:
    pairs = retrieve_pairs(graph, "nuclear power cheap", model="bm25", k=3)
    best = pairs[0]
    assert best.first.text == "Nuclear power is cheap."
    assert best.second is not None and best.second.text == "It also emits no carbon."
    assert [p.score for p in pairs] == sorted((p.score for p in pairs), reverse=True)
    used = [n.uid for p in pairs for n in (p.first, p.second) if n is not None]
    assert len(used) == len(set(used))  # no sentence in two pairs
    # the last sentence of its premise is paired with the one before it
    (last,) = retrieve_pairs(graph, "emissions tried", model="bm25", k=1)
    assert last.second is not None and last.second.text.startswith("They cut emissions")
    assert last.first.text == "Taxes on carbon work."


def test_dirichlet_scores_are_those_of_a_recount(graph) -> None:
    query = "nuclear power"
    ranked = rank_sentences(graph, query, model="dirichlet", k=10)
    cf, tokens, sentences = recount(graph)
    stats = TermStats(cf, tokens, sentences)
    assert read_term_stats(graph, tokenize(query)).cf == {"nuclear": 3, "power": 3}
    expected = dirichlet_lm(tokenize(query), [tokenize(s.text) for s in ranked], stats)
    assert [s.score for s in ranked] == pytest.approx(expected)
    # every sentence holding a query term, the shortest first (same matches, shorter document)
    assert [s.text for s in ranked] == [
        "Nuclear power is cheap.",
        "Nuclear power plants take a decade to build.",
        "They cut emissions where they are tried and nuclear power helps.",
    ]


def test_a_query_of_no_terms_finds_nothing(graph) -> None:
    assert retrieve_pairs(graph, "?!", model="dirichlet") == []
    with pytest.raises(ValueError, match="unknown sentence model"):
        rank_sentences(graph, "nuclear", model="tfidf")  # type: ignore[arg-type]


def test_statistics_are_recounted_after_an_undone_load(graph, tmp_path) -> None:
    # undoing a load deletes its units' sentences in Cypher, which cannot tokenize: the next
    # argkb sentences notices the sentence total is off and counts the terms again
    from argkb.ingest import undo_load

    path = tmp_path / "more.jsonl"
    line = {"id": "x1", "conclusion": "Coal claim", "premises": [
        {"text": "Coal plants pollute rivers. Coal is cheap.", "stance": "con"}]}  # fmt: skip
    path.write_text(json.dumps(line) + "\n")
    summary = load_records(graph, "jsonl", [path], reader("jsonl")([path]))
    assert split_premises(graph).sentences == 2
    undo_load(graph, summary.corpus)
    assert stored(graph) != recount(graph)  # "coal" still counted
    run = split_premises(graph)
    assert run.recounted_terms and run.premises == 0
    assert stored(graph) == recount(graph)
    assert not split_premises(graph).recounted_terms


def test_a_graph_without_the_sentence_index_says_what_to_run(graph) -> None:
    from argkb.sentences.retrieve import SentencesMissing
    from argkb.sentences.store import ensure_schema

    graph.execute_query("DROP INDEX sentence_text")
    try:
        with pytest.raises(SentencesMissing, match="run 'argkb sentences'"):
            retrieve_pairs(graph, "nuclear power")
    finally:
        assert ensure_schema(graph) == 1
        graph.execute_query("CALL db.awaitIndex('sentence_text', 60)")
    assert retrieve_pairs(graph, "nuclear power", k=1)[0].first.text == "Nuclear power is cheap."
