"""Sentence-pair answers where premises quote each other, on a real Neo4j: args.me posts quote
the opponent, so the same two sentences are in several premises. The answer shows such a pair
once, from the best-ranked premise, and lists the arguments of the premises that repeat it."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader
from argkb.sentences.answer import PairsResult, answer_pairs
from argkb.sentences.pipeline import BASELINE, DEFAULT, PairSettings

pytestmark = [pytest.mark.neo4j]

QUOTED = "Animal tests are cruel to the animals involved. They cause pain that no lab can justify."
ARGUMENTS = [
    {"id": "ban", "conclusion": "Animal testing should be banned",
     "premises": [{"id": "orig", "stance": "pro",
                   "text": f"{QUOTED} Alternatives such as cell cultures exist today."}]},
    {"id": "keep", "conclusion": "Animal testing should be banned",
     "premises": [{"id": "quote", "stance": "con",
                   "text": f'"{QUOTED}" That is not true. Labs follow strict rules '
                           "that keep the pain of animals low."}]},
    {"id": "again", "conclusion": "Cosmetics should not be tested on animals",
     "premises": [{"id": "copy", "stance": "pro",
                   "text": f"{QUOTED.upper()} Cosmetics are not worth it."}]},
    {"id": "other", "conclusion": "Medical research needs animals",
     "premises": [{"id": "vaccines", "stance": "pro",
                   "text": "Animal tests made vaccines safe for people. Polio vaccines were "
                           "tested on monkeys first and saved millions."}]},
]  # fmt: skip
QUERY = "animal tests cruel pain"


@pytest.fixture(scope="module")
def embedder():
    from argkb.embed.model import Embedder

    return Embedder(cache=False)


@pytest.fixture(scope="module")
def graph(db, embedder, tmp_path_factory: pytest.TempPathFactory):
    from argkb.embed.store import embed_units
    from argkb.sentences.store import split_premises

    path = tmp_path_factory.mktemp("pairs-repeats") / "args.jsonl"
    path.write_text("".join(json.dumps(a) + "\n" for a in ARGUMENTS))
    init_schema(db)
    load_records(db, "jsonl", [path], reader("jsonl")([path]))
    embed_units(db, embedder)
    split_premises(db)
    db.execute_query("CALL db.awaitIndex('sentence_text', 60)")
    return db


def _key(texts: list[str]) -> str:
    """The pair's words, lower-cased: what a reader compares (independent of argkb's code)."""
    return " ".join(re.findall(r"[a-z]+", " ".join(texts).lower()))


def _texts(result: PairsResult) -> list[str]:
    return [_key([s.text for s in p.sentences]) for p in result.pairs]


def _holders(driver, text: str) -> set[str]:
    """The premises (unit keys) holding two consecutive sentences whose words are ``text``."""
    records, _, _ = driver.execute_query(
        "MATCH (a:Sentence)-[:IN]->(u:Unit), (b:Sentence)-[:IN]->(u) "
        "WHERE b.position = a.position + 1 RETURN u.uid AS unit, a.text AS a, b.text AS b"
    )
    return {r["unit"] for r in records if _key([r["a"], r["b"]]) == text}


@pytest.mark.parametrize("settings", [DEFAULT, BASELINE], ids=["default", "baseline"])
def test_a_quoted_pair_is_shown_once(graph, embedder, settings) -> None:
    quoted = _key([QUOTED])
    assert _holders(graph, quoted) == {"id:orig", "id:quote", "id:copy"}
    # the defect: each premise gave its own pair, the same text three times
    before = answer_pairs(graph, QUERY, k=5, embedder=embedder,
                          settings=dataclasses.replace(settings, distinct_text=False))  # fmt: skip
    assert _texts(before).count(quoted) == 3
    after = answer_pairs(graph, QUERY, k=5, embedder=embedder, settings=settings)
    texts = _texts(after)
    assert texts.count(quoted) == 1 and len(texts) == len(set(texts))
    # the one kept is the best-ranked of the three, and the others' pairs move up behind it
    first = next(p for p in before.pairs if _texts(before)[p.rank - 1] == quoted)
    shown = after.pairs[texts.index(quoted)]
    assert (shown.unit, shown.score) == (first.unit, first.score)
    others = [p for p, t in zip(before.pairs, _texts(before), strict=True) if t != quoted]
    assert [p.unit for p in after.pairs if p is not shown] == [p.unit for p in others][:4]
    # it stands for the premises that repeat it: their arguments follow its own
    own = next(p for p in before.pairs if p.unit == shown.unit).arguments
    assert shown.arguments[: len(own)] == own
    assert sorted(a.aid for a in shown.arguments) == ["jsonl:again", "jsonl:ban", "jsonl:keep"]
    assert shown.stance == "mixed"  # pro in "ban" and "again", con in "keep" (the quotation)
    assert any(n.startswith("2 pairs of other premises repeated the text") for n in after.notes)
    assert not any("repeated the text" in n for n in before.notes)


def test_k_counts_distinct_pairs(graph, embedder) -> None:
    found = answer_pairs(graph, QUERY, k=2, embedder=embedder)
    assert len(found.pairs) == 2 and len(set(_texts(found))) == 2


def test_the_cli_counts_the_repeats_arguments(graph, neo4j_uri: str) -> None:
    result = CliRunner().invoke(main, ["query", QUERY, "--pairs", "--k", "5"],
                                env={"NEO4J_URI": neo4j_uri})  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout.count("They cause pain that no lab can justify") == 1
    assert "(+2 more)" in result.stdout
    assert "note: 2 pairs of other premises repeated the text" in result.stderr


def test_the_baseline_shows_a_quoted_sentence_once_whatever_its_partner(
    graph, embedder, tmp_path
) -> None:
    """A premise quoting the first sentence of QUOTED with a sentence of its own after it gave
    the baseline a pair of another text, so the quoted sentence was shown twice. Last in the
    module: it loads that premise."""
    first = QUOTED.split(". ")[0] + "."
    path = tmp_path / "partner.jsonl"
    premise = {"id": "part", "stance": "con", "text": f"{first} But animal tests saved millions."}
    line = {"id": "partner", "conclusion": "Medical research needs animals", "premises": [premise]}
    path.write_text(json.dumps(line) + "\n")
    from argkb.embed.store import embed_units
    from argkb.sentences.store import split_premises

    load_records(graph, "jsonl", [path], reader("jsonl")([path]))
    embed_units(graph, embedder)
    split_premises(graph)
    graph.execute_query("CALL db.awaitIndex('sentence_text', 60)")
    sentence = _key([first])

    def shown(settings: PairSettings) -> int:
        found = answer_pairs(graph, QUERY, k=10, embedder=embedder, settings=settings)
        return sum(sentence in _key([s.text for s in p.sentences]) for p in found.pairs)

    assert shown(dataclasses.replace(BASELINE, distinct_top=False)) == 2  # the defect
    assert shown(BASELINE) == 1
