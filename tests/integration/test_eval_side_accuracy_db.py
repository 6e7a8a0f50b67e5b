"""``argkb eval stance --side-accuracy`` on the fixtures: query answers judged by gold side."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

pytestmark = pytest.mark.neo4j
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _run(args: list[str]) -> Any:
    """The command in the test session's private ARGKB_HOME (tests/conftest.py), whose managed
    server is the one ``db`` wipes."""
    from argkb.cli import main

    return CliRunner().invoke(main, ["eval", "stance", *args])


def test_side_accuracy_of_the_default_and_the_baselines(db, tmp_path: Path) -> None:
    args = ["--argkp", str(FIXTURES / "argkp"), "--sigir19", str(FIXTURES / "sigir19"),
            "--side-accuracy", "--json"]  # fmt: skip
    # the shipped conclusion relations cover the dev half's topics, not the fixture's: refused
    # before anything is loaded
    count = "MATCH (n) RETURN count(n) AS n"
    empty = db.execute_query(count).records[0]["n"]
    refused = _run(args)
    assert refused.exit_code == 1 and "give --relations FILE" in refused.output
    assert db.execute_query(count).records[0]["n"] == empty
    # topic 2 ("abolish homework"): argument 101:1 argues the debate title "Homework should
    # be abolished", the query's own position; topic 4 is left out (a warning, not judged)
    relations = tmp_path / "relations.tsv"
    relations.write_text("topic\targument\trelation\n2\tsigir19:101:1\tsame\n")
    args += ["--relations", str(relations)]
    out = _run(args)
    assert out.exit_code == 0, out.output
    rows = {(r["benchmark"], r["ranker"]): r for r in json.loads(out.stdout)["side"]}
    assert set(rows) == {(b, r) for b in ("argkp-dev", "sigir19-dev")
                         for r in ("default", "bm25", "cosine")}  # fmt: skip
    # ArgKP dev: one topic, "Having a school uniform can reduce bullying." con, the other pro
    cosine = rows[("argkp-dev", "cosine")]
    assert (cosine["topics"], cosine["total"]["judged"], cosine["accuracy"]) == (1, 2, 1.0)
    assert rows[("argkp-dev", "bm25")]["accuracy"] in (1.0, None)  # right where it answers
    default = rows[("argkp-dev", "default")]["total"]
    assert default["returned"] > 0 and default["judged"] <= default["returned"]
    # SIGIR-19: only argument 101:1 has a side for a query (pro for topic 2); cosine, asked
    # for "abolish homework" pro, returns it on its data side
    sigir = rows[("sigir19-dev", "cosine")]
    assert (sigir["total"]["judged"], sigir["accuracy"]) == (1, 1.0)
    assert rows[("sigir19-dev", "default")]["total"]["judged"] <= 1
    # the graph holds both benchmarks now; a second run adds nothing to it
    before = db.execute_query(count).records[0]["n"]
    again = _run([a for a in args if a != "--json"])
    assert again.exit_code == 0, again.output
    assert db.execute_query(count).records[0]["n"] == before
    assert "Side accuracy of query answers" in again.stdout
    assert "| argkp-dev | cosine | 1 | 1.000 [1.00, 1.00] |" in again.stdout
