"""Sentence-pair answers where the graph is only partly ready, from an audit (session 29), on a
real Neo4j: a premise split but never embedded scores 0 on its topic and argumentativeness
features and the answer says so; a query whose matching sentences the preprocessing drops
(another language) says why there is no pair instead of "no sentence matches"; a corpus loaded
since the last ``argkb sentences`` is noted until it runs."""

from __future__ import annotations

import dataclasses
import json

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader
from argkb.sentences.answer import answer_pairs
from argkb.sentences.pipeline import BASELINE

pytestmark = [pytest.mark.neo4j]

PREMISES = {
    "embedded": "Nuclear reactors are reliable and they run all year long. Operators keep "
    "them safe with drills that are held every month.",
    "bare": "Nuclear reactors are reliable because engineers inspect them often. Inspections "
    "find faults early, before they can cause harm.",
    "russian": "Ядерная энергия опасна. Атомные станции взрываются.",
}


@pytest.fixture(scope="module")
def embedder():
    from argkb.embed.model import Embedder

    return Embedder(cache=False)


@pytest.fixture(scope="module")
def graph(db, embedder, tmp_path_factory: pytest.TempPathFactory):
    """Three premises of one claim, split into sentences; all embedded but ``id:bare``."""
    from argkb.embed.store import embed_units
    from argkb.sentences.store import split_premises

    path = tmp_path_factory.mktemp("pairs-audit") / "args.jsonl"
    line = {"id": "n1", "conclusion": "Nuclear power is safe",
            "premises": [{"id": key, "text": text, "stance": "pro"}
                         for key, text in PREMISES.items()]}  # fmt: skip
    path.write_text(json.dumps(line) + "\n")
    init_schema(db)
    load_records(db, "jsonl", [path], reader("jsonl")([path]))
    embed_units(db, embedder)
    db.execute_query("MATCH (u:Unit {uid: 'id:bare'}) REMOVE u.embedding")
    split_premises(db)
    db.execute_query("CALL db.awaitIndex('sentence_text', 60)")
    return db


def test_a_premise_without_an_embedding_scores_0_and_the_answer_says_so(graph, embedder):
    result = answer_pairs(graph, "nuclear reactors reliable", embedder=embedder, explain=True)
    by_unit = {p.unit: p for p in result.pairs}
    assert set(by_unit) == {"id:embedded", "id:bare"}
    bare = by_unit["id:bare"].explain
    assert bare is not None
    # its conclusion is embedded: the claim feature stays, the premise's own two are 0
    assert bare.features["topic"] == bare.features["argument"] == 0.0
    assert bare.features["claim"] > 0.0
    assert by_unit["id:bare"].score == pytest.approx(
        bare.features["first"] + bare.features["claim"], abs=1e-6
    )
    embedded = by_unit["id:embedded"].explain
    assert embedded is not None and embedded.features["argument"] > 0.0
    assert len(result.notes) == 1
    assert result.notes[0].startswith("1 of the 2 premises shown have no embedding")
    assert "argkb embed" in result.notes[0]


def test_no_note_where_every_premise_shown_is_embedded(graph, embedder):
    result = answer_pairs(graph, "operators drills", embedder=embedder)
    assert [p.unit for p in result.pairs] == ["id:embedded"]
    assert result.notes == []
    # the baseline does not re-rank: nothing is missing from it
    assert answer_pairs(graph, "nuclear reactors reliable", settings=BASELINE).notes == []


def test_matches_the_preprocessing_drops_are_named(graph, embedder):
    result = answer_pairs(graph, "Атомные станции", embedder=embedder)
    assert result.pairs == []
    assert result.message is not None and "dropped by the preprocessing" in result.message
    assert "--pairs-baseline" in result.message
    baseline = answer_pairs(graph, "Атомные станции", settings=BASELINE)
    assert [p.unit for p in baseline.pairs] == ["id:russian"]
    nothing = answer_pairs(graph, "zzzqqq", embedder=embedder)
    assert nothing.pairs == [] and nothing.message == "No sentence matches the query."


def test_the_cli_prints_the_note(graph, neo4j_uri: str):
    env = {"NEO4J_URI": neo4j_uri}
    text = CliRunner().invoke(main, ["query", "nuclear reactors reliable", "--pairs"], env=env)
    assert text.exit_code == 0, text.output
    assert text.stderr.startswith("note: 1 of the 2 premises shown have no embedding")
    assert "note:" not in text.stdout
    shown = CliRunner().invoke(main, ["query", "nuclear reactors reliable", "--pairs", "--json"],
                               env=env)  # fmt: skip
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["notes"] == text.stderr.strip().removeprefix("note: ").split(
        "\nnote: "
    )


def test_fewer_pairs_than_asked_because_of_the_depth_are_noted(graph):
    """Two sentences hold "reliable"; a first stage of depth 1 leaves one pair of the 10 asked
    (as the shipped depth, 100, leaves 69 of --k 150 on SIGIR-19 dev for "the")."""
    shallow = dataclasses.replace(BASELINE, depth=1)
    cut = answer_pairs(graph, "reliable", k=10, settings=shallow)
    assert len(cut.pairs) == 1
    assert cut.notes == [
        "1 pair, not 10: the pipeline re-ranks the first stage's best 1 sentence, and more "
        "than that hold the query's words (a larger k does not widen it)"
    ]
    whole = answer_pairs(graph, "reliable", k=10, settings=dataclasses.replace(BASELINE, depth=2))
    assert len(whole.pairs) == 2 and whole.notes == []


def test_a_corpus_loaded_since_the_last_split_is_noted_until_it_runs(graph, tmp_path):
    """Last: it loads a second corpus."""
    from argkb.sentences.store import split_premises

    query = "wind turbines quiet"
    assert not any(
        "argkb sentences" in n for n in answer_pairs(graph, query, settings=BASELINE).notes
    )
    path = tmp_path / "wind.jsonl"
    line = {"id": "w1", "conclusion": "Wind power is good",
            "premises": [{"text": "Wind turbines are quiet and they produce cheap power. Birds "
                          "are rarely harmed by them.", "stance": "pro"}]}  # fmt: skip
    path.write_text(json.dumps(line) + "\n")
    load_records(graph, "jsonl", [path], reader("jsonl")([path]))
    behind = answer_pairs(graph, query, settings=BASELINE)
    assert behind.pairs == [] and behind.message == "No sentence matches the query."
    assert behind.notes == [
        "1 corpus loaded since the last 'argkb sentences': premises not split yet are missing "
        "from these pairs; run 'argkb sentences'"
    ]
    split_premises(graph)
    graph.execute_query("CALL db.awaitIndex('sentence_text', 60)")
    caught_up = answer_pairs(graph, query, settings=BASELINE)
    assert caught_up.notes == [] and len(caught_up.pairs) == 1


def test_a_premise_with_a_word_longer_than_an_index_entry_is_split(graph, tmp_path):
    """A 40,000-character word (a pasted blob) failed every ``argkb sentences`` run: its term did
    not fit the sentence_term range index."""
    from argkb.sentences.store import count_pending, split_premises

    path = tmp_path / "blob.jsonl"
    text = "Glaciers melt because " + "x" * 40_000 + " is here. Glaciers are melting in the Alps."
    line = {"id": "b1", "conclusion": "Glaciers are melting",
            "premises": [{"id": "blob", "text": text, "stance": "pro"}]}  # fmt: skip
    path.write_text(json.dumps(line) + "\n")
    load_records(graph, "jsonl", [path], reader("jsonl")([path]))
    run = split_premises(graph)
    assert (run.premises, run.sentences) == (1, 2)
    assert count_pending(graph) == 0
    graph.execute_query("CALL db.awaitIndex('sentence_text', 60)")
    found = answer_pairs(graph, "glaciers melting alps", settings=BASELINE)
    assert [p.unit for p in found.pairs] == ["id:blob"]


def test_corpora_split_before_split_at_existed_are_stale_until_argkb_sentences(graph):
    """A graph split by an argkb older than ``Corpus.split_at`` has every corpus noted by the pair
    answers; ``argkb status`` counts them as a stale step of ``argkb sentences`` (so ``argkb
    update`` runs it), and that run, with no premise left to split, clears the note."""
    from argkb.db.staleness import stale_steps
    from argkb.pipeline import stale_counts
    from argkb.sentences.store import count_pending, split_premises

    def stale() -> int:
        return next(s.count for s in stale_steps(graph) if s.what == "corpora_since_sentences")

    query = "wind turbines quiet"
    assert stale() == 0 and count_pending(graph) == 0
    graph.execute_query("MATCH (c:Corpus) REMOVE c.split_at")  # as an older argkb left it
    (row,) = graph.execute_query("MATCH (c:Corpus {status: 'complete'}) RETURN count(c) AS n")[0]
    assert row["n"] > 0 and stale() == row["n"]
    assert stale_counts(graph, None, "sentences")["corpora_since_sentences"] == row["n"]
    assert any("argkb sentences" in n for n in answer_pairs(graph, query, settings=BASELINE).notes)
    assert split_premises(graph).premises == 0
    assert stale() == 0
    assert answer_pairs(graph, query, settings=BASELINE).notes == []
