"""What a failed load leaves on a real Neo4j (issue 13): nothing. The graph after a load that
stops on bad input is the graph before it, whatever kind of failure and whatever it wrote first;
AIF undercuts and left-out structure; status shows what is missing or unfinished."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from graphs import load, snapshot

from argkb.db.schema import init_schema
from argkb.errors import LoadError

pytestmark = pytest.mark.neo4j
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ARGSME = FIXTURES / "argsme" / "small.json"
OVA_201 = FIXTURES / "aif" / "ova" / "nodeset201.json"


@pytest.fixture()
def clean(db, wipe_db):
    wipe_db(db)
    init_schema(db)
    return db


def _line(aid: str, conclusion: str, premise: str, source: str | None = None) -> str:
    row: dict = {
        "id": aid,
        "conclusion": conclusion,
        "premises": [{"text": premise, "stance": "pro"}],
    }
    if source:
        row["source"] = {"id": source, "title": f"debate {source}"}
    return json.dumps(row)


def _good_lines(n: int) -> list[str]:
    # shares units with small.json: its conclusion "We should abandon fossil fuels" becomes a
    # premise here (a new Premise label on another corpus's unit) and one of its premises a claim
    shared = [
        _line("s1", "Coal must go", "We should abandon fossil fuels", source="debate-x"),
        _line("s2", "Burning fossil fuels drives climate change", "CO2 traps heat"),
    ]
    return shared + [_line(f"g{i}", f"claim {i}", f"premise {i}", source=f"d{i % 3}")
                     for i in range(n)]  # fmt: skip


FAILURES = {
    # name: (lines after the good ones, expected field of the error)
    "bad record": (['{"id": "b", "conclusion": "", "premises": [{"text": "p"}]}'], "conclusion"),
    "duplicate id": ([_line("g3", "another claim", "another premise", source="dup")], "id"),
    "malformed JSON": (['{"id": "m", "conclusion": '], "<json>"),
    "second text under one unit id": (
        [
            '{"id": "u1", "conclusion": {"text": "A", "id": "k"}, "premises": [{"text": "p"}]}',
            '{"id": "u2", "conclusion": {"text": "B", "id": "k"}, "premises": [{"text": "q"}]}',
        ],
        "conclusion.id",
    ),
}


@pytest.mark.parametrize("kind", sorted(FAILURES))
def test_a_failed_load_leaves_the_graph_as_it_was(clean, tmp_path: Path, kind: str) -> None:
    load(clean, "argsme", ARGSME)
    before = snapshot(clean)
    tail, field = FAILURES[kind]
    path = tmp_path / "mine.jsonl"
    path.write_text("\n".join([*_good_lines(40), *tail]) + "\n")
    with pytest.raises(LoadError) as caught:
        load(clean, "jsonl", path, batch_size=4)  # ten batches written before the failure
    assert caught.value.field == field
    assert snapshot(clean) == before
    # and the same file loads once fixed
    path.write_text("\n".join(_good_lines(40)) + "\n")
    summary = load(clean, "jsonl", path, batch_size=4)
    assert summary.arguments == 42


def test_an_argument_id_of_another_corpus_is_refused_unless_the_argument_is_the_same(
    clean, tmp_path: Path
) -> None:
    """An id another corpus loaded is one argument: a second corpus may repeat it unchanged
    (left to the first corpus), but not give it another premise or conclusion, which merged
    into the first corpus's argument (two conclusions) and made it the second corpus's."""
    first = tmp_path / "first.jsonl"
    first.write_text("\n".join(_good_lines(6)) + "\n")
    load(clean, "jsonl", first)
    before = snapshot(clean)
    new = _line("new", "a new claim", "a new premise")
    changed = tmp_path / "changed.jsonl"
    changed.write_text(f"{new}\n{_line('g2', 'claim 2', 'another premise', source='d2')}\n")
    with pytest.raises(LoadError) as caught:
        load(clean, "jsonl", changed)
    assert caught.value.field == "id" and "'jsonl:g2' is in the graph already" in str(caught.value)
    assert snapshot(clean) == before
    # the same argument again, beside a new one: left to the first corpus, the new one loads
    repeated = tmp_path / "repeated.jsonl"
    repeated.write_text(f"{new}\n{_line('g2', 'claim 2', 'premise 2', source='d2')}\n")
    summary = load(clean, "jsonl", repeated)
    assert (summary.arguments, summary.shared) == (1, 1)
    owner = clean.execute_query(
        "MATCH (a:Argument {aid: 'jsonl:g2'})-[:CONCLUDES]->(c) RETURN a.corpus AS corpus, "
        "count(c) AS conclusions"
    ).records[0]
    assert owner["conclusions"] == 1 and owner["corpus"] != summary.corpus


def test_an_argument_repeated_from_another_corpus_is_one_argument_whatever_the_batches(
    clean, tmp_path: Path
) -> None:
    """The same argument twice in a load is a duplicate id, also when it is another corpus's
    argument and the copies fall into different batches (the first copy is not written)."""
    first = tmp_path / "first.jsonl"
    first.write_text(_line("x", "claim x", "premise x") + "\n")
    load(clean, "jsonl", first)
    twice = tmp_path / "twice.jsonl"
    twice.write_text("\n".join([_line("x", "claim x", "premise x"), _line("y", "c y", "p y"),
                                 _line("x", "claim x", "premise x")]) + "\n")  # fmt: skip
    for batch_size in (1000, 1):
        with pytest.raises(LoadError, match="duplicate argument id 'jsonl:x'"):
            load(clean, "jsonl", twice, batch_size=batch_size)


def test_an_undercut_of_a_refused_argument_does_not_attack_another_corpus(
    clean, tmp_path: Path
) -> None:
    """With --on-error skip, an argument refused because another corpus holds a different one
    under its id takes its undercuts with it, instead of their attacking the other corpus's."""
    from argkb.ingest import LoadSummary, load_records
    from argkb.loaders.records import ArgumentRecord, UndercutRecord, UnitRef

    def load_these(*records: ArgumentRecord | UndercutRecord) -> LoadSummary:
        return load_records(clean, "aif", [tmp_path / f"{len(records)}.json"], iter(records),
                            on_error="skip", reject_report=tmp_path / "rejected.jsonl")  # fmt: skip

    (tmp_path / "1.json").write_text("one")
    (tmp_path / "3.json").write_text("three")
    mine = ArgumentRecord("aif:m:1", UnitRef("c"), (UnitRef("p"),), "pro")
    load_these(mine)
    other = ArgumentRecord("aif:m:1", UnitRef("c"), (UnitRef("q"),), "pro", where="m.json:1")
    attack = UndercutRecord("aif:m:2", (UnitRef("u"),), "aif:m:1", where="m.json:2")
    fine = ArgumentRecord("aif:m:3", UnitRef("d"), (UnitRef("e"),), "con")
    summary = load_these(other, attack, fine)
    assert (summary.rejected, summary.arguments) == (2, 1)
    undercuts = "MATCH (:Argument)-[r:UNDERCUTS]->() RETURN count(r) AS n"
    assert clean.execute_query(undercuts).records[0]["n"] == 0


def test_an_argument_of_an_interrupted_load_is_taken_over_or_named(clean, tmp_path: Path) -> None:
    """An argument that an unfinished load wrote may yet be undone with it: a later corpus that
    repeats it takes it over; one that changes it is refused, saying what to do."""
    first = tmp_path / "first.jsonl"
    first.write_text(_line("x", "claim x", "premise x") + "\n")
    cid = load(clean, "jsonl", first).corpus
    clean.execute_query("MATCH (c:Corpus {cid: $cid}) SET c.status = 'loading'", cid=cid)
    changed = tmp_path / "changed.jsonl"
    changed.write_text(_line("x", "claim x", "another premise") + "\n")
    with pytest.raises(LoadError, match="that corpus's load did not finish"):
        load(clean, "jsonl", changed)
    repeated = tmp_path / "repeated.jsonl"
    repeated.write_text(_line("x", "claim x", "premise x") + "\n" + _line("y", "c", "p") + "\n")
    summary = load(clean, "jsonl", repeated)
    assert (summary.arguments, summary.shared) == (2, 0)
    owner = "MATCH (a:Argument {aid: 'jsonl:x'}) RETURN a.corpus AS corpus"
    assert clean.execute_query(owner).records[0]["corpus"] == summary.corpus


def test_argkb_db_drop_removes_one_corpus_and_leaves_the_others(clean, tmp_path: Path) -> None:
    """A corpus dropped is as if never loaded: the graph is the other corpus's again; an
    interrupted load can be dropped too, and an unknown id names the corpora there are."""
    from click.testing import CliRunner

    from argkb.cli import main

    load(clean, "argsme", ARGSME)
    before = snapshot(clean)
    mine = tmp_path / "mine.jsonl"
    mine.write_text("\n".join(_good_lines(8)) + "\n")  # shares units with the args.me sample
    cid = load(clean, "jsonl", mine).corpus
    status = CliRunner().invoke(main, ["status"])
    assert f"  {cid}  complete  10 arguments  mine.jsonl" in status.output, status.output
    listed = json.loads(CliRunner().invoke(main, ["status", "--json"]).output)["corpora"]
    assert {(c["cid"], c["arguments"]) for c in listed} >= {(cid, 10)}
    dropped = CliRunner().invoke(main, ["db", "drop", cid, "--yes"])
    assert dropped.exit_code == 0, dropped.output
    assert dropped.output.startswith(f"removed corpus {cid} (complete; 10 arguments")
    assert snapshot(clean) == before
    unknown = CliRunner().invoke(main, ["db", "drop", cid, "--yes"])
    assert unknown.exit_code == 1 and unknown.output.count("\n") == 1, unknown.output
    assert f"no corpus '{cid}'" in unknown.output and "argsme:" in unknown.output
    # an interrupted load, whose file then changed: dropped, the changed file loads
    cid = load(clean, "jsonl", mine).corpus
    clean.execute_query("MATCH (c:Corpus {cid: $cid}) SET c.status = 'loading'", cid=cid)
    mine.write_text(_line("g1", "claim 1", "a premise that changed") + "\n")
    with pytest.raises(LoadError, match=f"argkb db drop {cid}"):
        load(clean, "jsonl", mine)
    assert CliRunner().invoke(main, ["db", "drop", cid, "--yes"]).exit_code == 0
    assert load(clean, "jsonl", mine).arguments == 1


def test_an_empty_jsonl_file_is_an_error_and_leaves_no_corpus(clean, tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    with pytest.raises(LoadError, match="empty"):
        load(clean, "jsonl", empty)
    assert clean.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 0


def test_an_input_without_records_is_an_error_in_every_format_and_mode(
    clean, tmp_path: Path
) -> None:
    # a CSV corpus of headers only, and an empty JSONL in skip mode, as the empty JSONL above
    folder = tmp_path / "aq"
    folder.mkdir()
    for path in (FIXTURES / "argquality").iterdir():
        keep = 1 if "arguments" in path.name else None  # the arguments file: its header only
        (folder / path.name).write_text("\n".join(path.read_text().splitlines()[:keep]) + "\n")
    with pytest.raises(LoadError, match="no records: the input is empty"):
        load(clean, "argquality", folder)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(LoadError, match="no records loaded: all 1 rejected"):
        load(clean, "jsonl", empty, on_error="skip", reject_report=tmp_path / "r.jsonl")
    # an AIF map with no nodes (a bad-input audit, 2026-11-28): its source alone made an empty
    # "complete" corpus
    bare = tmp_path / "bare.json"
    bare.write_text('{"nodes": [], "edges": []}')
    with pytest.raises(LoadError, match="no arguments: 1 record"):
        load(clean, "aif", bare)
    assert clean.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 0


def test_a_corpus_of_arguments_loaded_before_is_complete_not_empty(clean, tmp_path: Path) -> None:
    # the same arguments in other bytes (re-serialised JSON): a new corpus whose every argument
    # is left to the first one; "no arguments" is for input that holds none (audit, 2026-11-28)
    first = load(clean, "argsme", ARGSME)
    copy = tmp_path / "again.json"
    copy.write_text(json.dumps(json.loads(ARGSME.read_text(encoding="utf-8"))), encoding="utf-8")
    again = load(clean, "argsme", copy)
    assert not again.already_loaded and again.corpus != first.corpus
    assert (again.arguments, again.shared) == (0, first.arguments)
    status = clean.execute_query(
        "MATCH (c:Corpus {cid: $cid}) RETURN c.status AS s", cid=again.corpus
    ).records
    assert [r["s"] for r in status] == ["complete"]


def test_dropping_a_corpus_passes_the_arguments_another_corpus_repeated_to_it(
    clean, tmp_path: Path
) -> None:
    # a review find (2026-11-28): the second corpus wrote nothing of the arguments it repeated,
    # so dropping the first removed them from the second, which stayed "complete" without them
    from click.testing import CliRunner

    from argkb.cli import main
    from argkb.ingest_drop import drop_corpus

    first = load(clean, "argsme", ARGSME)
    copy = tmp_path / "again.json"
    copy.write_text(json.dumps(json.loads(ARGSME.read_text(encoding="utf-8"))), encoding="utf-8")
    again = load(clean, "argsme", copy)
    status = CliRunner().invoke(main, ["status"]).output
    assert f"  {again.corpus}  complete  0 arguments (and {first.arguments} shared)" in status
    assert load(clean, "argsme", copy).shared == first.arguments  # stored: a rerun says it too
    drop_corpus(clean, first.corpus)
    owners = clean.execute_query(
        "MATCH (n) WHERE n:Argument OR n:Unit OR n:Source "
        "RETURN n.corpus AS c, count(CASE WHEN n:Argument THEN 1 END) AS arguments"
    ).records
    assert [(r["c"], r["arguments"]) for r in owners] == [(again.corpus, first.arguments)]
    drop_corpus(clean, again.corpus)
    assert clean.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 0


def test_a_failed_load_that_repeated_arguments_leaves_no_trace_of_them(
    clean, tmp_path: Path
) -> None:
    load(clean, "jsonl", _jsonl(tmp_path / "first.jsonl", _good_lines(4)))
    before = snapshot(clean)
    lines = [*_good_lines(4), '{"id": "b", "conclusion": "", "premises": [{"text": "p"}]}']
    with pytest.raises(LoadError):  # batches of one: the repeated arguments are recorded first
        load(clean, "jsonl", _jsonl(tmp_path / "second.jsonl", lines), batch_size=1)
    assert snapshot(clean) == before


def _jsonl(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_failed_forced_reload_keeps_the_complete_corpus(clean) -> None:
    first = load(clean, "argsme", ARGSME)
    before = snapshot(clean)
    with pytest.raises(LoadError, match="limit 10"):
        load(clean, "argsme", ARGSME, force=True, max_text=10)
    assert snapshot(clean) == before
    again = load(clean, "argsme", ARGSME)
    assert again.already_loaded and again.arguments == first.arguments


def test_a_failed_bulk_load_leaves_nothing_and_its_indexes(clean, tmp_path: Path) -> None:
    path = tmp_path / "mine.jsonl"
    path.write_text("\n".join([*_good_lines(20), FAILURES["bad record"][0][0]]) + "\n")
    with pytest.raises(LoadError):
        load(clean, "jsonl", path, batch_size=4, bulk=True)
    assert clean.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 0
    names = {r["name"] for r in clean.execute_query("SHOW FULLTEXT INDEXES YIELD name").records}
    assert {"claim_text", "premise_text"} <= names


def _aifdb(path: Path, nodes: list[tuple[str, str, str]], edges: list[tuple[str, str]]) -> Path:
    path.write_text(json.dumps({
        "nodes": [{"nodeID": i, "type": t, "text": x} for i, t, x in nodes],
        "edges": [{"edgeID": str(k), "fromID": a, "toID": b}
                  for k, (a, b) in enumerate(edges, start=1)],
    }))  # fmt: skip
    return path


def test_aif_undercuts_are_attacks_on_arguments_and_pagerank_runs(clean) -> None:
    from argkb.rank.store import run_pagerank

    summary = load(clean, "aif", OVA_201)
    assert (summary.arguments, summary.undercuts, summary.rejected) == (3, 1, 0)
    rows = clean.execute_query(
        "MATCH (p:Unit)-[r:PREMISE_OF]->(u:Argument)-[:UNDERCUTS]->(t:Argument)"
        "-[:CONCLUDES]->(c:Unit) "
        "RETURN u.aid AS u, u.stance AS stance, r.stance AS r, p.text AS p, t.aid AS t, "
        "c.text AS c, COUNT { (u)-[:CONCLUDES]->() } AS own, labels(p) AS labels"
    ).records
    assert [dict(r) for r in rows] == [{
        "u": "aif:nodeset201:312", "stance": "con", "r": "con",
        "p": "Three bins hardly take any effort", "t": "aif:nodeset201:311",
        "c": "Berlin should separate its waste", "own": 0, "labels": ["Unit", "Premise"],
    }]  # fmt: skip
    run = run_pagerank(clean)
    assert run.units == summary.units
    scored = clean.execute_query(
        "MATCH (a:Argument) RETURN a.aid AS aid, a.relevance_sum IS NOT NULL AS scored ORDER BY aid"
    ).records
    # the undercut has no conclusion: not an edge of the unit graph, so no relevance
    assert [(r["aid"], r["scored"]) for r in scored] == [
        ("aif:nodeset201:310", True), ("aif:nodeset201:311", True),
        ("aif:nodeset201:312", False),
    ]  # fmt: skip


def test_aif_structure_argkb_does_not_model_is_left_out_with_counts(clean, tmp_path: Path) -> None:
    folder = tmp_path / "maps"
    folder.mkdir()
    _aifdb(folder / "m1.json",
           [("1", "I", "Tom is a bird"), ("2", "I", "Tom can fly"), ("3", "L", "Ann: Tom flies"),
            ("10", "RA", "Default Inference"), ("11", "RA", "Default Inference")],
           [("1", "10"), ("10", "2"), ("3", "11"), ("11", "2")])  # fmt: skip
    _aifdb(folder / "m2.json",
           [("1", "I", "Penguins swim"), ("2", "I", "Penguins are birds"),
            ("10", "RA", "Default Inference"), ("12", "CA", "Default Conflict")],
           [("1", "10"), ("10", "2"), ("12", "10")])  # fmt: skip
    summary = load(clean, "aif", folder)  # fail mode: none of this is an error
    assert (summary.arguments, summary.rejected) == (2, 0)
    assert summary.left_out == {"inference without an I-node premise": 2}
    assert len(summary.left_out_examples) == 2
    units = clean.execute_query("MATCH (u:Unit) RETURN count(u) AS n").records[0]["n"]
    assert units == summary.units == 4


def test_status_shows_missing_indexes_and_unfinished_loads(clean) -> None:
    from click.testing import CliRunner

    from argkb.cli import main

    load(clean, "argsme", ARGSME)
    clean.execute_query("DROP INDEX claim_text")
    clean.execute_query(
        "MATCH (c:Corpus) SET c.status = 'loading', c.bulk_indexes = ['premise_text']"
    )
    # no --uri: the session's server, as a user's commands reach it (NEO4J_URI for other backends)
    result = CliRunner().invoke(main, ["status"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any("claim_text" in line and "MISSING" in line for line in lines)
    assert "warning: index claim_text is missing: run 'argkb init' to create it" in lines
    assert any(line.startswith("warning: load argsme:") and "is loading since" in line
               for line in lines)  # fmt: skip
    as_json = json.loads(CliRunner().invoke(main, ["status", "--json"]).output)
    assert as_json["missing"] == [{"name": "claim_text", "kind": "FULLTEXT"}]
    assert [load["status"] for load in as_json["incomplete_loads"]] == ["loading"]


def _aif_map(path: Path, alone: str, *, broken: bool = False) -> None:
    """An AIFdb map: I-node 1 -> RA 10 -> I-node 2, and I-node 3 (``alone``) in no argument; a
    ``broken`` one has an edge to a node that does not exist."""
    nodes = [
        {"nodeID": "1", "type": "I", "text": "Cities should ban cars"},
        {"nodeID": "2", "type": "I", "text": "Cars pollute the air"},
        {"nodeID": "3", "type": "I", "text": alone},
        {"nodeID": "10", "type": "RA", "text": "Default Inference"},
    ]
    edges = [
        {"edgeID": "1", "fromID": "2", "toID": "10"},
        {"edgeID": "2", "fromID": "10", "toID": "1"},
    ]
    if broken:
        edges.append({"edgeID": "3", "fromID": "2", "toID": "424242"})
    path.write_text(json.dumps({"nodes": nodes, "edges": edges}), encoding="utf-8")


def _two_folders(tmp_path: Path) -> tuple[Path, Path]:
    """Folders ``first`` and ``second``; ``first`` holds map ``m1`` with a lone unit."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    _aif_map(first / "m1.json", "A unit on its own")
    return first, second


def _one_map_twice(tmp_path: Path) -> tuple[Path, Path]:
    """Folders ``first`` and ``second`` with map ``m1``, its lone unit edited in the second."""
    first, second = _two_folders(tmp_path)
    _aif_map(second / "m1.json", "A unit on its own, edited")
    return first, second


def test_a_failed_load_takes_back_a_unit_it_hung_on_another_corpus_source(
    clean, tmp_path: Path
) -> None:
    # a second-audit find (2026-11-28): the same map id with one stand-alone I-node edited; its
    # new unit hangs on the first corpus's Source, and the failed load left it there
    first, second = _one_map_twice(tmp_path)
    _aif_map(second / "m2.json", "Another", broken=True)
    load(clean, "aif", first)
    before = snapshot(clean)
    with pytest.raises(LoadError, match="unknown node id '424242'"):
        load(clean, "aif", second, batch_size=1)
    assert snapshot(clean) == before  # nor does it keep the second map's path on the source


def test_what_another_corpus_still_uses_passes_to_it_when_a_corpus_is_dropped(
    clean, tmp_path: Path
) -> None:
    # corpus 1 creates the map's source and units; corpus 2 (the map with a unit edited) uses
    # them. Dropping 1 keeps them for 2, and dropping 2 then leaves nothing (they stayed owned
    # by corpus 1, which no drop could reach any more)
    from argkb.ingest_drop import drop_corpus

    first, second = _one_map_twice(tmp_path)
    one = load(clean, "aif", first)
    two = load(clean, "aif", second)
    drop_corpus(clean, one.corpus)
    owners = clean.execute_query(
        "MATCH (n) WHERE n:Unit OR n:Source RETURN DISTINCT n.corpus AS c"
    ).records
    assert [r["c"] for r in owners] == [two.corpus]
    # the argument corpus two repeated from corpus one (RA 10) is corpus two's now
    kept = clean.execute_query("MATCH (a:Argument) RETURN a.aid AS aid, a.corpus AS c").records
    assert [(r["aid"], r["c"]) for r in kept] == [("aif:m1:10", two.corpus)]
    drop_corpus(clean, two.corpus)
    assert clean.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 0


def _bike_map(path: Path, alone: str) -> None:
    """An AIFdb map with the argument I-node 4 -> RA 11 -> I-node 5, and I-node 6 (``alone``)."""
    nodes = [
        {"nodeID": "4", "type": "I", "text": "Bikes keep people healthy"},
        {"nodeID": "5", "type": "I", "text": "Cities should build bike lanes"},
        {"nodeID": "6", "type": "I", "text": alone},
        {"nodeID": "11", "type": "RA", "text": "Default Inference"},
    ]
    edges = [
        {"edgeID": "1", "fromID": "4", "toID": "11"},
        {"edgeID": "2", "fromID": "11", "toID": "5"},
    ]
    path.write_text(json.dumps({"nodes": nodes, "edges": edges}), encoding="utf-8")


def test_a_unit_another_corpus_hung_on_a_dropped_corpus_source_stays_with_it(
    clean, tmp_path: Path
) -> None:
    # a review find (2026-11-28): corpus two names corpus one's premise "Cars pollute the air"
    # on its own, on corpus one's map source; the undo counted that FROM edge, drawn by corpus
    # two, as corpus one's (its far end is corpus one's source), so the drop removed the unit
    from argkb.ingest_drop import drop_corpus

    first, second = _two_folders(tmp_path)
    _bike_map(second / "m1.json", "Cars pollute the air")
    one = load(clean, "aif", first)
    two = load(clean, "aif", second)
    drop_corpus(clean, one.corpus)
    kept = clean.execute_query(
        "MATCH (u:Unit {text: 'Cars pollute the air'})-[f:FROM]->(s:Source) "
        "RETURN u.corpus AS unit, f.corpus AS edge, s.corpus AS source"
    ).records
    assert [tuple(r.values()) for r in kept] == [(two.corpus,) * 3]
    drop_corpus(clean, two.corpus)
    assert clean.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 0


def test_a_failed_load_takes_back_the_source_it_hung_another_corpus_unit_on(
    clean, tmp_path: Path
) -> None:
    # a review find (2026-11-28): the failed load's new source stayed, with the FROM edge it drew
    # from corpus one's unit, both handed to corpus one
    first, second = _two_folders(tmp_path)
    _bike_map(second / "m2.json", "Cars pollute the air")
    _aif_map(second / "m3.json", "Another", broken=True)
    load(clean, "aif", first)
    before = snapshot(clean)
    with pytest.raises(LoadError, match="unknown node id '424242'"):
        load(clean, "aif", second, batch_size=1)
    assert snapshot(clean) == before


def test_a_link_keeps_the_label_the_corpus_that_drew_it_gave(clean, tmp_path: Path) -> None:
    # a review find (2026-11-28): a second ArgKP corpus whose labels file says otherwise for a
    # pair rewrote the first corpus's match label, and dropping it did not give it back
    import shutil

    from argkb.ingest_drop import drop_corpus

    other = tmp_path / "argkp"
    shutil.copytree(FIXTURES / "argkp", other)
    labels = other / "labels_dev.csv"
    labels.write_text(labels.read_text().replace("arg_4_1,kp_4_0,0", "arg_4_1,kp_4_0,1"))
    load(clean, "argkp", FIXTURES / "argkp")
    before = snapshot(clean)
    second = load(clean, "argkp", other)
    query = "MATCH (:Unit)-[m:MATCHES_KEY_POINT]->(:Unit) RETURN m.label AS label, count(*) AS n"
    assert snapshot(clean) != before  # the second corpus's node and what it shares
    drop_corpus(clean, second.corpus)
    assert snapshot(clean) == before
    assert {r["label"] for r in clean.execute_query(query).records} == {0, 1}


def test_nothing_passes_to_a_corpus_that_is_no_longer_loaded(clean, tmp_path: Path) -> None:
    # a review find (2026-11-28): the heir was the smallest corpus id among a node's users, also
    # one whose corpus a drop before edges named their corpus had removed
    from argkb.ingest_drop import drop_corpus

    one = load(clean, "jsonl", _jsonl(tmp_path / "one.jsonl", _good_lines(2)))
    clean.execute_query(
        "MATCH (u:Unit {corpus: $cid}) WITH u LIMIT 1 "
        "CREATE (u)-[:MATCHES_KEY_POINT {corpus: 'jsonl:gone'}]->(:Unit {uid: 'k', corpus: "
        "'jsonl:gone'})",
        cid=one.corpus,
    )
    drop_corpus(clean, one.corpus)
    left = clean.execute_query("MATCH (n) RETURN n.uid AS uid, n.corpus AS c").records
    assert [(r["uid"], r["c"]) for r in left] == [("k", "jsonl:gone")]


def test_every_undo_step_seeks_its_corpus_in_an_index(clean) -> None:
    # a review find (2026-11-28): the hand-over was one unbatched statement over a label
    # disjunction whose index use nothing checked; a scan here reads every node of a big graph
    from argkb.db import cypher
    from argkb.ingest import _UNDO_STEPS

    def operators(plan: dict) -> list[str]:
        below = (op for child in plan.get("children", []) for op in operators(child))
        return [plan["operatorType"], *below]

    with clean.session() as session:
        for name, identifiers in (*_UNDO_STEPS, ("undo_corpus", {})):
            query = cypher.render(f"ingest/{name}", **identifiers)
            plan = session.run(f"EXPLAIN {query}", cid="x").consume().plan
            used = operators(plan)
            assert not [op for op in used if "Scan" in op], (name, used)
            assert any("IndexSeek" in op for op in used), (name, used)


def test_a_step_over_an_unfinished_load_warns_that_it_sees_part_of_it(
    clean, neo4j_uri: str
) -> None:
    # a second-audit find (2026-11-28): pagerank ran on a half-loaded graph without a word
    from click.testing import CliRunner

    from argkb.cli import main

    summary = load(clean, "argsme", ARGSME)
    clean.execute_query("MATCH (c:Corpus) SET c.status = 'loading'")
    result = CliRunner().invoke(main, ["pagerank", "--uri", neo4j_uri], prog_name="argkb")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0] == (
        f"warning: load {summary.corpus} ({ARGSME}) did not finish, so this step sees part of "
        "it: run the same 'argkb load' again, then this step (or 'argkb update')"
    )


def test_ctrl_c_mid_load_is_one_error_line_that_says_how_to_finish(
    clean, neo4j_uri: str, tmp_path: Path
) -> None:
    # it printed click's bare "Aborted!" (second audit, 2026-11-28)
    import os
    import signal
    import subprocess
    import sys
    import time

    from synthcorpus import write_json

    corpus = tmp_path / "synth.json"
    write_json(corpus, 3000, seed=5)
    # Ctrl-C as at a terminal: a test run started in the background (``cmd &``) ignores SIGINT,
    # and Python then installs no KeyboardInterrupt handler, so the load ran to its end
    script = (
        "import signal, sys\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from argkb.cli import main\n"
        "sys.argv = ['argkb', 'load', 'argsme', sys.argv[1], '--batch-size', '50', '--no-bulk']\n"
        "main()\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(corpus)],
        env={**os.environ, "NEO4J_URI": neo4j_uri},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if clean.execute_query("MATCH (a:Argument) RETURN count(a) AS n").records[0]["n"] >= 200:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the load finished before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    *before, last = stderr.splitlines()
    assert last == (
        "Error: interrupted: what was written stays, its corpus marked 'loading' ('argkb status' "
        "lists it); run the same 'argkb load' again to complete it"
    )
    # a stage the load finished before the signal says so in its one line; nothing else is there
    # (on a loaded machine the record stage can end before the interrupt reaches a later step)
    assert all(
        re.fullmatch(r"[\w ]+: [\d,]+( of [\d,]+)? ?\w+ in \d+\.\d s", line) for line in before
    ), stderr
    status = clean.execute_query("MATCH (c:Corpus) RETURN c.status AS s").records
    assert [r["s"] for r in status] == ["loading"]
