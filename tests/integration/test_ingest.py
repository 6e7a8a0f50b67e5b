"""Loading corpora into a real Neo4j: structure, idempotence, merging, bad input, killed loads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from graphs import kill_load_midway, load, snapshot

from argkb.db.schema import init_schema
from argkb.errors import LoadError
from argkb.loaders.records import normalise_text

pytestmark = pytest.mark.neo4j
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "argsme"


@pytest.fixture()
def clean(db, wipe_db):
    wipe_db(db)
    init_schema(db)
    return db


def test_argsme_structure(clean) -> None:
    summary = load(clean, "argsme", FIXTURES / "small.json")
    # d2-00001 has premises of both stances: two arguments
    assert summary.arguments == 5 and summary.rejected == 0
    # units: abandon, burning(=conclusion of d2-0), poor, co2, renewables, grid
    assert summary.units == 6
    assert summary.sources == 2
    # d1-00000 uses the conclusion of d2-00000 as its premise
    assert summary.reuse_edges == 1
    rows = clean.execute_query(
        "MATCH (a1:Argument)-[:REUSES]->(a2:Argument) RETURN a1.aid AS a1, a2.aid AS a2"
    ).records
    assert [(r["a1"], r["a2"]) for r in rows] == [("argsme:d1-00000-000", "argsme:d2-00000-000")]
    # the conclusion and the premise spelled with a final period are one unit
    both = clean.execute_query("MATCH (u:Claim&Premise) RETURN u.text AS text").records
    assert [normalise_text(r["text"]) for r in both] == [
        "burning fossil fuels drives climate change"
    ]
    stances = clean.execute_query(
        "MATCH (:Unit)-[r:PREMISE_OF]->(a:Argument {aid: 'argsme:d2-00001-000:con'}) "
        "RETURN r.stance AS s, a.stance AS a"
    ).records
    assert [(r["s"], r["a"]) for r in stances] == [("con", "con")]


def test_loading_twice_changes_nothing(clean) -> None:
    first = load(clean, "argsme", FIXTURES / "small.json")
    before = snapshot(clean)
    again = load(clean, "argsme", FIXTURES / "small.json")
    assert again.already_loaded
    assert snapshot(clean) == before
    forced = load(clean, "argsme", FIXTURES / "small.json", force=True)
    assert (forced.arguments, forced.units, forced.reuse_edges) == (
        first.arguments, first.units, first.reuse_edges)  # fmt: skip
    assert snapshot(clean) == before


def test_second_corpus_merges_shared_units(clean) -> None:
    load(clean, "argsme", FIXTURES / "small.json")
    units_before = clean.execute_query("MATCH (u:Unit) RETURN count(u) AS n").records[0]["n"]
    second = load(clean, "argsme", FIXTURES / "small.jsonl")
    units_after = clean.execute_query("MATCH (u:Unit) RETURN count(u) AS n").records[0]["n"]
    # new: nuclear-expanded, nuclear-co2, fission; "We should abandon fossil fuels" is shared
    assert units_after == units_before + 3
    assert second.units == 4
    # j1 reuses j2's conclusion; j3 (abandon fossil fuels) reuses it too
    assert second.reuse_edges == 2
    shared = clean.execute_query(
        "MATCH (a:Argument)-[:CONCLUDES]->(u:Unit {text: 'We should abandon fossil fuels'}) "
        "RETURN count(DISTINCT a.corpus) AS corpora"
    ).records[0]["corpora"]
    assert shared == 2


def _write(path: Path, arguments: list) -> Path:
    path.write_text(json.dumps({"arguments": arguments}))
    return path


def _arg(aid: str, conclusion: object, premise: object, stance: object = "PRO") -> dict:
    return {"id": aid, "conclusion": conclusion, "premises": [{"text": premise, "stance": stance}]}


BAD_RECORDS = [
    (_arg("b1", "", "p"), "conclusion", "missing or empty"),
    (_arg("b2", "c", "p", "MAYBE"), "premises[0].stance", "unknown stance"),
    (_arg("b3", "Same text.", "same TEXT"), "premises[0]", "self-loop"),
    (_arg("b4", "c", "x" * 200), "premises[0]", "limit 100"),
    ({"conclusion": "c", "premises": [{"text": "p", "stance": "PRO"}]}, "id", "missing"),
    (_arg("ok1", "c", "p"), "id", "duplicate argument id"),  # second ok1, see below
]


def test_bad_records_fail_with_file_record_and_field(clean, tmp_path: Path) -> None:
    for number, (bad, field, reason) in enumerate(BAD_RECORDS):
        good = [_arg("ok1", "conclusion one", "premise one")]
        path = _write(tmp_path / f"bad{number}.json", [*good, bad])
        with pytest.raises(LoadError) as caught:
            load(clean, "argsme", path, max_text=100)
        err = caught.value
        assert err.field == field and reason in err.reason
        assert err.where.startswith(f"{path}#1")
    # nothing of the failing batch was written
    assert clean.execute_query("MATCH (a:Argument) RETURN count(a) AS n").records[0]["n"] == 0


def test_skip_loads_the_rest_and_reports(clean, tmp_path: Path) -> None:
    good = [_arg("ok1", "conclusion one", "premise one"), _arg("ok2", "conclusion two", "p two")]
    path = _write(tmp_path / "mixed.json", [good[0], *[b for b, _, _ in BAD_RECORDS], good[1]])
    report = tmp_path / "rejected.jsonl"
    summary = load(clean, "argsme", path, on_error="skip", max_text=100, reject_report=report)
    assert summary.arguments == 2 and summary.rejected == len(BAD_RECORDS)
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    assert [line["field"] for line in lines] == [field for _, field, _ in BAD_RECORDS]


def test_malformed_json_and_encodings(clean, tmp_path: Path) -> None:
    truncated = tmp_path / "cut.json"
    text = json.dumps({"arguments": [_arg("a", "c1", "p1"), _arg("b", "c2", "p2")]})
    truncated.write_text(text[: len(text) - 30])
    with pytest.raises(LoadError, match=r"cut\.json.*malformed JSON after record 0"):
        load(clean, "argsme", truncated)
    summary = load(clean, "argsme", truncated, on_error="skip", reject_report=tmp_path / "r")
    assert summary.arguments == 1 and summary.rejected == 1

    utf16 = tmp_path / "wide.json"
    utf16.write_text(text, encoding="utf-16")
    with pytest.raises(LoadError, match="UTF-16"):
        load(clean, "argsme", utf16)

    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(
        json.dumps(_arg("l1", "café", "p"), ensure_ascii=False).encode("latin-1") + b"\n"
        + json.dumps(_arg("l2", "fine", "p")).encode() + b"\n"
    )  # fmt: skip
    with pytest.raises(LoadError, match=r"latin\.jsonl:1.*not UTF-8"):
        load(clean, "argsme", latin)


def test_generic_jsonl_format(clean, tmp_path: Path) -> None:
    path = tmp_path / "mine.jsonl"
    lines = [
        {"id": "g1", "conclusion": "Cities should ban cars",
         "source": {"id": "blog", "pagerank": 0.4},
         "premises": [{"text": "Cars pollute", "stance": "pro"},
                      {"text": "Deliveries need roads", "stance": "attack"}]},
        {"conclusion": {"text": "Cars pollute", "id": "u-cars"},
         "premises": [{"text": "Exhaust contains NOx", "stance": "+1"}]},
    ]  # fmt: skip
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    summary = load(clean, "jsonl", path)
    assert summary.arguments == 3 and summary.sources == 1
    rank = clean.execute_query("MATCH (s:Source) RETURN s.pagerank AS p").records[0]["p"]
    assert rank == 0.4
    # "Cars pollute" with an explicit id is a different unit from the text-keyed one
    assert summary.units == 5 and summary.reuse_edges == 0


KILL_SCRIPT = """
import sys
from argkb.cli import main
sys.argv = ["argkb", "load", "argsme", sys.argv[1], "--batch-size", "50", "--json"]
main()
"""


def test_killed_load_resumes_to_the_same_graph(
    clean, wipe_db, tmp_path: Path, neo4j_uri: str
) -> None:
    from synthcorpus import write_json

    corpus = tmp_path / "synth.json"
    write_json(corpus, 3000, seed=7)
    written = kill_load_midway(clean, neo4j_uri, KILL_SCRIPT, corpus)
    status = clean.execute_query("MATCH (c:Corpus) RETURN c.status AS s").records[0]["s"]
    assert status == "loading" and written >= 500

    resumed = load(clean, "argsme", corpus)
    assert not resumed.already_loaded
    after_resume = snapshot(clean)

    wipe_db(clean)
    init_schema(clean)
    fresh = load(clean, "argsme", corpus)
    assert snapshot(clean) == after_resume
    assert (fresh.arguments, fresh.units, fresh.reuse_edges) == (
        resumed.arguments, resumed.units, resumed.reuse_edges)  # fmt: skip
