"""``argkb sentences`` on a real Neo4j: premises become (:Sentence)-[:IN]->(:Premise) nodes with
NEXT edges, searchable by the sentence_text full-text index; the step is incremental (a second
run splits nothing, a changed text is split again) and counted in ``argkb status``."""

from __future__ import annotations

import json

import pytest

from argkb.db.schema import init_schema
from argkb.db.staleness import stale_steps
from argkb.ingest import load_records
from argkb.loaders import reader
from argkb.sentences.store import count_pending, sentence_counts, split_premises

pytestmark = [pytest.mark.neo4j]

PREMISES = [
    "Dr. Smith says taxes rise. See http://example.com/a?b=1. So the ban fails.",
    "One sentence only",
    "Emoji 😀 first. Then café second.\n\nA third paragraph",
]


def stale(driver) -> int:
    return next(s.count for s in stale_steps(driver) if s.what == "premises_without_sentences")


def sentences_of(driver, premise: str) -> list[dict]:
    rows = driver.execute_query(
        """
        MATCH (s:Sentence)-[r:IN]->(u:Premise {text: $premise})
        OPTIONAL MATCH (s)-[:NEXT]->(n:Sentence)
        RETURN s.text AS text, s.position AS position, r.position AS rel_position,
               s.start AS start, s.words AS words, s.uid AS uid, n.position AS next
        ORDER BY s.position
        """,
        premise=premise,
    ).records
    return [row.data() for row in rows]


@pytest.fixture(scope="module")
def graph(db, tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("sentences") / "args.jsonl"
    lines = [
        {"id": f"s{i}", "conclusion": f"Claim {i} about bans",
         "premises": [{"text": text, "stance": "pro"}]}
        for i, text in enumerate(PREMISES)
    ]  # fmt: skip
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    init_schema(db)
    load_records(db, "jsonl", [path], reader("jsonl")([path]))
    return db


def test_split_stores_sentences_in_order_with_next_edges(graph) -> None:
    assert stale(graph) == len(PREMISES)
    run = split_premises(graph, page=2)  # two pages
    assert (run.premises, run.sentences) == (3, 7)
    first = sentences_of(graph, PREMISES[0])
    assert [s["text"] for s in first] == [
        "Dr. Smith says taxes rise.", "See http://example.com/a?b=1.", "So the ban fails."
    ]  # fmt: skip
    assert [s["position"] for s in first] == [0, 1, 2] == [s["rel_position"] for s in first]
    assert [s["next"] for s in first] == [1, 2, None]
    assert [s["words"] for s in first] == [5, 2, 4]
    assert len({s["uid"] for s in first}) == 3
    assert [s["text"] for s in sentences_of(graph, PREMISES[1])] == ["One sentence only"]
    # claims are not split; counts as status reports them
    assert sentence_counts(graph) == {"sentences": 7, "split_premises": 3}
    assert stale(graph) == 0


def test_offsets_agree_with_cypher_substring_beyond_the_bmp(graph) -> None:
    # Python counts code points; so must Cypher, or every emoji premise would look changed
    rows = sentences_of(graph, PREMISES[2])
    assert [r["text"] for r in rows] == [
        "Emoji 😀 first.",
        "Then café second.",
        "A third paragraph",
    ]
    assert count_pending(graph) == 0


def test_second_run_splits_nothing(graph) -> None:
    before = graph.execute_query("MATCH (s:Sentence) RETURN collect(elementId(s)) AS ids")
    run = split_premises(graph)
    assert (run.premises, run.sentences) == (0, 0)
    after = graph.execute_query("MATCH (s:Sentence) RETURN collect(elementId(s)) AS ids")
    assert sorted(before.records[0]["ids"]) == sorted(after.records[0]["ids"])


def test_full_text_index_finds_sentences(graph) -> None:
    graph.execute_query("CALL db.awaitIndex('sentence_text', 60)")
    rows = graph.execute_query(
        "CALL db.index.fulltext.queryNodes('sentence_text', 'ban') YIELD node RETURN node.text AS t"
    ).records
    assert [r["t"] for r in rows] == ["So the ban fails."]


@pytest.mark.parametrize(
    ("new_text", "status_sees_it"),
    [
        # same length: only a hand edit can do this (argkb's loads only fill in empty texts);
        # argkb sentences finds it, argkb status, which compares lengths only, does not
        ("Dr. Smith says taxes fall. See http://example.com/a?b=1. So the ban fails.", 0),
        ("A new premise. Of two sentences.", 1),
    ],
)
def test_a_changed_text_is_split_again(graph, new_text: str, status_sees_it: int) -> None:
    graph.execute_query(
        "MATCH (u:Premise) WHERE u.text STARTS WITH 'Dr. Smith' OR u.text STARTS WITH 'A new' "
        "SET u.text = $t",
        t=new_text,
    )
    assert count_pending(graph) == 1
    assert stale(graph) == status_sees_it
    run = split_premises(graph)
    assert run.premises == 1
    assert "".join(s["text"] for s in sentences_of(graph, new_text)).replace(" ", "") == (
        new_text.replace(" ", "")
    )
    assert sentence_counts(graph)["sentences"] == 4 + len(sentences_of(graph, new_text))
    assert stale(graph) == 0


def test_a_premise_split_by_an_older_splitter_is_split_again(graph) -> None:
    """A graph split before ``split_version`` existed (splitter 1: syntok alone) or by another
    version: ``argkb status`` counts those premises and the next run splits them, and only them."""
    from argkb.db.staleness import SPLITTER

    versions = graph.execute_query(
        "MATCH (u:Premise) RETURN collect(DISTINCT u.split_version) AS v"
    ).records[0]["v"]
    assert versions == [SPLITTER]
    graph.execute_query("MATCH (u:Premise) WHERE u.text STARTS WITH 'One' REMOVE u.split_version")
    graph.execute_query(
        "MATCH (u:Premise) WHERE u.text STARTS WITH 'Emoji' SET u.split_version = $v",
        v=SPLITTER + 1,
    )
    assert count_pending(graph) == 2 and stale(graph) == 2
    before = sentence_counts(graph)
    assert split_premises(graph).premises == 2
    assert count_pending(graph) == 0 and stale(graph) == 0
    assert sentence_counts(graph) == before


def test_all_splits_every_premise_again_without_duplicates(graph) -> None:
    before = sentence_counts(graph)
    run = split_premises(graph, all_units=True)
    assert run.premises == len(PREMISES)
    assert sentence_counts(graph) == before


def test_undoing_a_load_removes_its_premises_with_their_sentences(graph, tmp_path) -> None:
    # a load undone after `argkb sentences` ran: the units go, and their sentences with them
    # (before, a unit with sentences counted as used by another corpus and stayed)
    from argkb.ingest import undo_load

    path = tmp_path / "more.jsonl"
    path.write_text(
        json.dumps({"id": "m1", "conclusion": "Another claim entirely",
                    "premises": [{"text": "Fresh words here. And more.", "stance": "con"}]})
        + "\n"
    )  # fmt: skip
    before = sentence_counts(graph)["sentences"]
    summary = load_records(graph, "jsonl", [path], reader("jsonl")([path]))
    assert split_premises(graph).sentences == 2
    undo_load(graph, summary.corpus)
    left = graph.execute_query(
        "MATCH (u:Unit) WHERE u.text IN ['Fresh words here. And more.', 'Another claim entirely'] "
        "RETURN count(u) AS n"
    ).records[0]["n"]
    assert left == 0
    assert sentence_counts(graph)["sentences"] == before
    assert (
        graph.execute_query(
            "MATCH (s:Sentence) WHERE NOT (s)-[:IN]->(:Premise) RETURN count(s) AS n"
        ).records[0]["n"]
        == 0
    )


def test_the_command_and_status(graph, neo4j_uri: str) -> None:
    from click.testing import CliRunner

    from argkb.cli import main

    def argkb(*args: str) -> dict:
        result = CliRunner().invoke(main, [*args, "--json"], env={"NEO4J_URI": neo4j_uri})
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    split_premises(graph)  # as the tests before it leave the graph (this one may run alone)
    graph.execute_query("MATCH (u:Premise) WITH u LIMIT 1 REMOVE u.split_chars")
    status = argkb("status")
    stale = {entry["what"]: entry for entry in status["stale"]}
    assert stale["premises_without_sentences"]["count"] == 1
    assert stale["premises_without_sentences"]["command"] == "argkb sentences"
    assert argkb("sentences")["premises"] == 1
    assert argkb("sentences")["premises"] == 0
    assert argkb("sentences", "--all")["premises"] == len(PREMISES)
    status = argkb("status")
    assert {e["what"]: e["count"] for e in status["stale"]}["premises_without_sentences"] == 0
    assert status["counts"]["labels"]["Sentence"] == sentence_counts(graph)["sentences"]


def test_embed_stores_unit_vectors_and_the_index(graph, neo4j_uri: str) -> None:
    """``argkb sentences --embed``: every sentence gets its all-MiniLM-L6-v2 vector (as the
    model gives it for the text), the sentence_embedding index exists; a second run embeds
    nothing, and a re-split sentence (a new node) is embedded again."""
    import numpy as np
    from click.testing import CliRunner

    from argkb.cli import main
    from argkb.embed.model import Embedder

    def argkb(*args: str) -> dict:
        result = CliRunner().invoke(main, [*args, "--json"], env={"NEO4J_URI": neo4j_uri})
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    first = argkb("sentences", "--embed")
    total = sentence_counts(graph)["sentences"]
    assert first["embedded"]["sentences"] == total > 0
    rows = graph.execute_query("MATCH (s:Sentence) RETURN s.text AS text, s.embedding AS e").records
    expected = Embedder(cache=False).embed([r["text"] for r in rows])
    stored = np.asarray([r["e"] for r in rows])
    assert np.allclose(stored, expected, atol=1e-5)
    index = graph.execute_query(
        "SHOW VECTOR INDEXES YIELD name, labelsOrTypes, properties "
        "WHERE name = 'sentence_embedding' RETURN labelsOrTypes, properties"
    ).records
    assert [(r["labelsOrTypes"], r["properties"]) for r in index] == [(["Sentence"], ["embedding"])]
    assert argkb("sentences", "--embed")["embedded"]["sentences"] == 0
    graph.execute_query(
        "MATCH (u:Premise {text: $text}) SET u.text = u.text + ' And one more.'", text=PREMISES[1]
    )
    again = argkb("sentences", "--embed")
    assert again["premises"] == 1 and again["embedded"]["sentences"] == again["sentences"] > 0
    # a text changed and split without --embed: status counts the sentences without a vector,
    # and argkb update embeds them (the graph opted in)
    graph.execute_query(
        "MATCH (u:Premise) WITH u ORDER BY u.uid LIMIT 1 SET u.text = u.text + ' Yet another.'"
    )
    assert argkb("sentences")["premises"] == 1
    waiting = {e["what"]: e for e in argkb("status")["stale"]}["sentences_without_embedding"]
    assert waiting["count"] > 0 and waiting["command"] == "argkb sentences --embed"
    updated = argkb("update")
    assert {e["what"]: e["count"] for e in argkb("status")["stale"]}[
        "sentences_without_embedding"] == 0  # fmt: skip
    assert any(step.get("result", {}).get("embedded_sentences") == waiting["count"]
               for step in updated["steps"])  # fmt: skip
