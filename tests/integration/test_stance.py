"""Unknown stance on a real Neo4j: loaded as data, predicted by ``argkb stance``, data untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from graphs import load

from argkb.db.schema import graph_counts, init_schema
from argkb.errors import LoadError

pytestmark = pytest.mark.neo4j

ENERGY = "We should abandon fossil fuels"
LINES = [
    {"id": "e1", "conclusion": ENERGY, "premises": [
        {"text": "Burning coal and oil warms the planet", "stance": "pro"},
        {"text": "Poor households cannot afford the alternatives", "stance": "con"},
        {"text": "Fossil fuel pollution kills millions of people every year"},
        {"text": "Abandoning them would destroy millions of jobs", "stance": None},
        {"text": "Solar and wind power are now cheaper than coal", "stance": "unknown"},
    ]},
    {"id": "e3", "conclusion": "Nuclear power is safe",
     "premises": [{"text": "Modern reactors shut down by themselves when they overheat"}]},
]  # fmt: skip
REACTORS = "Modern reactors shut down by themselves when they overheat"


def _edges(driver) -> dict[str, dict]:
    rows = driver.execute_query(
        "MATCH (p:Unit)-[r:PREMISE_OF]->(:Argument) RETURN p.text AS text, properties(r) AS r"
    ).records
    return {row["text"]: dict(row["r"]) for row in rows}


@pytest.fixture()
def energy(db, wipe_db, tmp_path: Path):
    wipe_db(db)
    init_schema(db)
    path = tmp_path / "energy.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in LINES), encoding="utf-8")
    load(db, "jsonl", path)
    return db, path


def test_premise_without_stance_loads_as_unknown(energy) -> None:
    driver, _ = energy
    edges = _edges(driver)
    assert len(edges) == 6
    unknown = {text for text, r in edges.items() if r["stance"] == "unknown"}
    assert unknown == {t["text"] for t in LINES[0]["premises"][2:]} | {REACTORS}  # type: ignore[index]
    assert all("stance_source" not in edges[text] for text in unknown)
    assert edges["Burning coal and oil warms the planet"]["stance_source"] == "data"
    aids = driver.execute_query(
        "MATCH (a:Argument) RETURN a.aid AS aid, a.stance AS stance ORDER BY aid"
    ).records
    assert [(r["aid"], r["stance"]) for r in aids] == [
        ("jsonl:e1:con", "con"), ("jsonl:e1:pro", "pro"), ("jsonl:e1:unknown", "unknown"),
        ("jsonl:e3", "unknown")]  # fmt: skip
    assert graph_counts(driver)["premise_stance"] == {"data": 2, "model": 0, "unknown": 4}


def test_bad_stance_value_is_still_an_error(db, wipe_db, tmp_path: Path) -> None:
    wipe_db(db)
    init_schema(db)
    path = tmp_path / "bad.jsonl"
    line = {"conclusion": ENERGY, "premises": [{"text": "Coal is cheap", "stance": "maybe"}]}
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    with pytest.raises(LoadError, match=r"bad.jsonl:1: field 'premises\[0\].stance'"):
        load(db, "jsonl", path)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["cross", "cross-minilm", "linear"])
def test_stance_labels_unknown_and_leaves_data_alone(energy, kind: str) -> None:
    from argkb.embed.model import Embedder
    from argkb.stance.store import load_model, predict_unknown, stance_counts

    driver, path = energy
    before = _edges(driver)
    model = load_model(kind)  # type: ignore[arg-type]
    run = predict_unknown(driver, embedder=Embedder(), model=model)
    assert (run.pending, run.written, run.pro + run.con) == (4, 4, 4)
    after = _edges(driver)
    for text, r in before.items():
        if r["stance"] != "unknown":
            assert after[text] == r  # data stances untouched, no model properties added
            continue
        assert after[text]["stance_source"] == "model"
        assert after[text]["stance_model"] == model.model_id
        p = after[text]["stance_p_pro"]
        assert 0.0 <= p <= 1.0 and after[text]["stance"] == ("pro" if p >= 0.5 else "con")
    assert stance_counts(driver) == {"data": 2, "model": 4, "unknown": 0}
    # nothing left to predict; a refresh re-predicts the model's own edges, identically
    assert predict_unknown(driver, embedder=Embedder(), model=model).pending == 0
    again = predict_unknown(driver, embedder=Embedder(), model=model, refresh=True)
    assert again.written == 4 and _edges(driver) == after
    # loading the same data again keeps the predictions (the data still says nothing)
    load(driver, "jsonl", path, force=True)
    assert _edges(driver) == after
    # data that now gives a stance to the same edge replaces the model's, provenance and all
    decided = path.with_name("decided.jsonl")
    line = {"id": "e3", "conclusion": "Nuclear power is safe",
            "premises": [{"text": REACTORS, "stance": "pro"}]}  # fmt: skip
    decided.write_text(json.dumps(line) + "\n", encoding="utf-8")
    load(driver, "jsonl", decided)
    final = _edges(driver)
    assert final[REACTORS] == {"stance": "pro", "stance_source": "data"}
    assert {t: r for t, r in final.items() if t != REACTORS} == {
        t: r for t, r in after.items() if t != REACTORS
    }
    assert stance_counts(driver) == {"data": 3, "model": 3, "unknown": 0}


def test_query_json_says_where_each_members_stance_came_from(energy) -> None:
    """Load without stance -> `argkb stance` -> `argkb embed` -> `argkb query --json`."""
    from click.testing import CliRunner

    from argkb.cli import main

    runner = CliRunner()
    for args in (["stance"], ["embed"]):
        out = runner.invoke(main, args)
        assert out.exit_code == 0, out.output
    out = runner.invoke(main, ["query", ENERGY, "--k", "10", "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    source = {
        m["text"]: m["stance_source"]
        for side in ("pro", "con") for c in result[side] for m in c["members"]
    }  # fmt: skip
    assert source["Burning coal and oil warms the planet"] == "data"
    assert source["Poor households cannot afford the alternatives"] == "data"
    assert source["Fossil fuel pollution kills millions of people every year"] == "model"
    assert source["Solar and wind power are now cheaper than coal"] == "model"


def test_stance_with_nothing_to_predict_does_not_load_the_model(
    db, wipe_db, tmp_path: Path
) -> None:
    """Every premise has its stance from the data: ``argkb stance`` says so and never loads
    the model. The model it is given is unreadable, so loading it would fail the command."""
    from click.testing import CliRunner

    from argkb.cli import main

    wipe_db(db)
    init_schema(db)
    path = tmp_path / "decided.jsonl"
    line = {"id": "d1", "conclusion": ENERGY, "premises": [
        {"text": "Burning coal and oil warms the planet", "stance": "pro"},
        {"text": "Poor households cannot afford the alternatives", "stance": "con"},
    ]}  # fmt: skip
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    load(db, "jsonl", path)
    broken = tmp_path / "broken.json"
    broken.write_text("not a stance model", encoding="utf-8")

    runner = CliRunner()
    out = runner.invoke(main, ["stance", "--model", str(broken)])
    assert out.exit_code == 0, out.output
    assert out.stdout.splitlines() == [
        "nothing to predict: no premise edge has an unknown stance; "
        "the stance model was not loaded",
        "premise stances: 2 from data, 0 from the model, 0 unknown",
    ]
    as_json = runner.invoke(main, ["stance", "--kind", "linear", "--model", str(broken), "--json"])
    assert as_json.exit_code == 0, as_json.output
    assert json.loads(as_json.stdout)["run"] == {
        "pending": 0, "written": 0, "pro": 0, "con": 0, "model": None, "skipped": 0,
    }  # fmt: skip

    # with an edge to predict the same command does load it, and says why it cannot
    unknown = tmp_path / "unknown.jsonl"
    line = {"id": "d2", "conclusion": ENERGY, "premises": [{"text": "Coal is cheap"}]}
    unknown.write_text(json.dumps(line) + "\n", encoding="utf-8")
    load(db, "jsonl", unknown)
    failed = runner.invoke(main, ["stance", "--model", str(broken)])
    assert failed.exit_code == 1
    error = failed.output.splitlines()[-1]  # after the progress bar
    assert error.startswith("Error: ") and "not a cross-encoder stance model" in error, error
