"""``argkb keypoints``' graph side (issue 32, item 1): a topic's premises come out of Neo4j with
their stance and source and are summarised per stance, on a small ArgKP fixture."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from graphs import load

from argkb.keypoints.topic import topic_key_points, topic_premises

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
TOPIC = "We should ban fossil fuels"


def test_topic_premises_and_key_points(db) -> None:
    from argkb.embed.model import Embedder

    load(db, "argkp", FIXTURES / "eval" / "argkp")
    premises = topic_premises(db, TOPIC.upper() + "  ")  # case and surrounding space ignored
    spaced = " \t".join(TOPIC.split(" "))  # and the space between words
    assert topic_premises(db, spaced) == premises
    assert premises
    assert {p.stance for p in premises.values()} <= {"pro", "con"}
    for premise in premises.values():
        assert premise.sources and str(premise.sources[0]["sid"]).startswith("argkp:dev:")
        assert all(s.keys() == {"sid", "title", "url"} for s in premise.sources)
    assert topic_premises(db, "no such topic") == {}

    report = topic_key_points(premises, TOPIC, ("pro", "con"), 2, Embedder())
    for stance, part in report["stances"].items():
        texts = {p.text for p in premises.values() if p.stance == stance}
        assert 1 <= len(part["key_points"]) <= 2
        for row in part["key_points"]:
            # a key point is a sentence of one of this stance's premises
            assert any(row["key_point"] in text for text in texts)
            assert row["prevalence"] >= 1  # a key point no premise matches is left out


def test_keypoints_command(db, neo4j_uri) -> None:
    """``argkb keypoints TOPIC --json`` prints the report of :func:`keypoints_report`; a topic
    that no argument concludes is one line on stderr and a non-zero exit."""
    import json

    from click.testing import CliRunner

    from argkb.cli import main
    from argkb.embed.model import Embedder
    from argkb.keypoints.topic import keypoints_report

    load(db, "argkp", FIXTURES / "eval" / "argkp")
    args = ["keypoints", TOPIC, "--stance", "pro", "--k", "2", "--json", "--uri", neo4j_uri]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert set(printed["stances"]) == {"pro"}
    assert printed == keypoints_report(db, TOPIC, "pro", 2, Embedder())
    assert result.stderr == ""  # --json: nothing but the JSON
    shown = CliRunner().invoke(main, [*args[:-3], "--uri", neo4j_uri])
    assert shown.exit_code == 0, shown.output
    # a line per stance on stderr before the slow part, the report on stdout
    n = printed["stances"]["pro"]["premises"]
    assert shown.stderr.splitlines() == [f"pro: {n:,} premises; choosing key points ..."]
    assert shown.stdout.startswith(f"{TOPIC}: {printed['premises']} premises")
    # each key point under a labelled count: the premises it summarises
    out = shown.stdout.splitlines()
    assert out[out.index(f"pro ({n} premises)") + 1] == "  matched  key point"
    for row in printed["stances"]["pro"]["key_points"]:
        assert f"  {row['prevalence']:>7}  {row['key_point']}" in out
    # examples are cut at a word, within 90 characters, and say so
    rows = printed["stances"]["pro"]["key_points"]
    examples = [" ".join(e["text"].split()) for row in rows for e in row["examples"]]
    lines = [line.split("e.g. ", 1)[1] for line in shown.stdout.splitlines() if "e.g. " in line]
    assert len(lines) == len(examples) > 0
    for line, full in zip(lines, examples, strict=True):
        text = line[: line.rfind(" [")] if line.endswith("]") else line
        assert len(text) <= 90
        assert text == full or (text.endswith(" ...") and full.startswith(text[:-4] + " "))
    missing = CliRunner().invoke(main, ["keypoints", "no such topic", "--uri", neo4j_uri])
    assert missing.exit_code != 0
    assert missing.stderr.strip().splitlines() == [
        "Error: no argument concludes 'no such topic' (argkb query finds topic texts)"
    ]


def test_a_missing_topic_names_the_closest_conclusions(db, neo4j_uri) -> None:
    """A topic that no argument concludes: the one-line error names the conclusions closest in
    words, so that the user can copy one (args.me titles rarely match a topic verbatim)."""
    from click.testing import CliRunner

    from argkb.cli import main
    from argkb.db.schema import init_schema
    from argkb.keypoints.topic import closest_topics

    init_schema(db)  # the claim_text full-text index, as argkb init makes it
    load(db, "argkp", FIXTURES / "eval" / "argkp")
    db.execute_query("CALL db.awaitIndexes(60)")
    assert closest_topics(db, "ban fossil fuels") == [TOPIC]
    assert closest_topics(db, "???") == []  # no searchable word
    result = CliRunner().invoke(main, ["keypoints", "ban fossil fuels", "--uri", neo4j_uri])
    assert result.exit_code != 0
    assert result.stderr.strip().splitlines() == [
        f"Error: no argument concludes 'ban fossil fuels'; closest conclusions: {TOPIC!r}"
    ]
    # without the claim_text index (a graph never given `argkb init`) there is nothing to
    # suggest, and the line says how to find topic texts instead
    db.execute_query("DROP INDEX claim_text")
    try:
        assert closest_topics(db, "ban fossil fuels") == []
        bare = CliRunner().invoke(main, ["keypoints", "ban fossil fuels", "--uri", neo4j_uri])
        assert bare.stderr.strip().splitlines() == [
            "Error: no argument concludes 'ban fossil fuels' (argkb query finds topic texts)"
        ]
    finally:
        init_schema(db)


def test_the_exact_text_of_a_conclusion_finds_its_premises(db, tmp_path) -> None:
    """A conclusion with a no-break space, or a letter that Python and Neo4j lower-case apart
    (Glagolitic U+2C2F, newer than Neo4j's Java): its own text, as the missing-topic line quotes
    it, finds it (the topic was cut at every Unicode space and lower-cased in Python, while the
    conclusions were cut at four characters and lower-cased by Neo4j, so neither matched)."""
    import json

    conclusions = ["Cities\u00a0should ban private cars", "Cars \u2c2f should be banned"]
    lines: list[dict[str, Any]] = [
        {"id": f"nb{i}", "conclusion": text, "source": "nb",
         "premises": [{"text": f"Exhaust fumes harm the lungs of people in town {i}.",
                       "stance": "pro"}]}
        for i, text in enumerate(conclusions)
    ]  # fmt: skip
    path = tmp_path / "nbsp.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    load(db, "jsonl", path)
    for i, text in enumerate(conclusions):
        found = topic_premises(db, text)
        assert [p.text for p in found.values()] == [lines[i]["premises"][0]["text"]], text
        assert topic_premises(db, text.upper()) == found  # case still ignored
    # a no-break space is a character of the text, not a space between words
    assert topic_premises(db, "Cities should ban private cars") == {}


def test_keypoints_text_keeps_each_key_point_on_one_line(db, neo4j_uri, monkeypatch) -> None:
    """A key point is a sentence of a premise and may hold line breaks and tabs, as may a
    source's title and the topic: the text output puts each on its line (they broke the
    columns). The report is set by hand here; the command still connects to the server."""
    from click.testing import CliRunner

    from argkb.cli import main
    from argkb.keypoints import topic as topic_module

    source = {"sid": "jsonl:nl", "title": "A title\nover two lines", "url": None}
    row = {
        "key_point": "Cars pollute the\nair of our cities\tbadly.",
        "prevalence": 2,
        "arguments": 2,
        "from": {"text": "Cars pollute the\nair of our cities\tbadly.", "sources": [source]},
        "examples": [{"text": "Car fumes make\nthe air dirty.", "sources": [source]}],
    }
    report = {"topic": "Cars\nin cities", "premises": 2, "unknown_stance": 0,
              "stances": {"pro": {"premises": 2, "key_points": [row]}}}  # fmt: skip
    monkeypatch.setattr(topic_module, "keypoints_report", lambda *args, **kwargs: report)
    shown = CliRunner().invoke(main, ["keypoints", "Cars\nin cities", "--uri", neo4j_uri])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines() == [
        "Cars in cities: 2 premises",
        "",
        "pro (2 premises)",
        "  matched  key point",
        "        2  Cars pollute the air of our cities badly.",
        "          e.g. Car fumes make the air dirty. [A title over two lines]",
    ]


def test_an_empty_graph_is_told_to_load_a_corpus(db, neo4j_uri, wipe_db) -> None:
    """In a graph that holds no argument (``argkb init`` run, nothing loaded), the one-line
    error says to load a corpus (it sent the user to ``argkb query`` for topic texts), with a
    non-zero exit; in a graph with arguments it still names the closest conclusions."""
    from click.testing import CliRunner

    from argkb.cli import main
    from argkb.db.schema import init_schema
    from argkb.keypoints.topic import why_missing

    wipe_db(db)
    init_schema(db)
    db.execute_query("CALL db.awaitIndexes(60)")
    result = CliRunner().invoke(main, ["keypoints", TOPIC, "--uri", neo4j_uri])
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        f"Error: no argument concludes {TOPIC!r}: the graph holds no argument yet "
        "(argkb load FORMAT PATH loads a corpus)"
    ]
    load(db, "argkp", FIXTURES / "eval" / "argkp")
    db.execute_query("CALL db.awaitIndexes(60)")
    assert why_missing(db, "ban fossil fuels") == (
        f"no argument concludes 'ban fossil fuels'; closest conclusions: {TOPIC!r}"
    )
    assert why_missing(db, "???") == "no argument concludes '???' (argkb query finds topic texts)"


def test_counts_on_a_corpus_checked_by_hand(db, tmp_path) -> None:
    """Six premises conclude the topic, counted by hand: one used by two arguments (of two
    sources) counts once, with both arguments and sources; a conclusion spelt with other case
    and spaces is the same topic; a premise of another topic is left out even when it is the
    same text; one of unknown stance is counted apart. Pro 3, con 2, unknown 1."""
    import json

    from argkb.embed.model import Embedder
    from argkb.keypoints.topic import keypoints_report

    topic = "Cities should ban private cars"
    exhaust = "Car exhaust pollutes the air that city residents breathe every day."
    workers = "Many workers depend on their cars to reach their jobs on time."
    rows = [
        ("h1", topic, [(exhaust, "pro")], "s1"),
        ("h2", topic, [("Exhaust fumes from cars make urban air dirty to breathe.", "pro")], "s2"),
        ("h3", "cities   should ban PRIVATE cars", [(exhaust, "pro")], "s3"),
        ("h4", topic, [("Traffic accidents kill thousands of pedestrians a year.", "pro")], "s1"),
        ("h5", topic, [(workers, "con"), ("A ban hurts people far from transit.", "unknown")],
         "s2"),
        ("h6", topic, [("People with disabilities often need a car to get around.", "con")],
         "s2"),
        ("h7", "Something else entirely", [(workers, "pro")], "s9"),
    ]  # fmt: skip
    path = tmp_path / "cars.jsonl"
    path.write_text("".join(json.dumps({
        "id": aid, "conclusion": conclusion, "source": {"id": sid, "title": f"Debate {sid}"},
        "premises": [{"text": text, "stance": stance} for text, stance in premises]}) + "\n"
        for aid, conclusion, premises, sid in rows), encoding="utf-8")  # fmt: skip
    load(db, "jsonl", path)
    premises = topic_premises(db, topic)
    by_text = {(p.text, p.stance): p for p in premises.values()}
    assert len(premises) == len(by_text) == 6
    reused = by_text[(exhaust, "pro")]
    assert sorted(reused.arguments) == ["jsonl:h1", "jsonl:h3"]
    assert sorted(str(s["sid"]) for s in reused.sources) == ["jsonl:s1", "jsonl:s3"]
    assert (workers, "pro") not in by_text  # h7's: another topic
    assert by_text[(workers, "con")].arguments == ["jsonl:h5:con"]
    report = keypoints_report(db, topic, "both", 5, Embedder())
    assert report is not None
    assert (report["premises"], report["unknown_stance"]) == (6, 1)
    assert {s: part["premises"] for s, part in report["stances"].items()} == {"pro": 3, "con": 2}
    for part in report["stances"].values():
        assert sum(row["prevalence"] for row in part["key_points"]) <= part["premises"]
        for row in part["key_points"]:
            # each premise counts once (the reused one brings two arguments); the examples are
            # premises it counts
            assert row["arguments"] >= row["prevalence"] >= 1
            assert len(row["examples"]) <= min(2, row["prevalence"])
