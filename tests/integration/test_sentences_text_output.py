"""What ``argkb sentences`` prints, on a real Neo4j: the split counted in words a reader can
take in ("1 premise"), and a run with nothing to split said as such (it printed "split 0
premises into 0 sentences in 0.9 s (0 premises/s ...)")."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader

pytestmark = [pytest.mark.neo4j]


def test_the_counts_and_a_run_with_nothing_to_split(db, neo4j_uri: str, tmp_path) -> None:
    path = tmp_path / "one.jsonl"
    premise = {"text": "Schools need money. Roads do too.", "stance": "pro"}
    line = {"id": "t1", "conclusion": "Taxes should rise", "premises": [premise]}
    path.write_text(json.dumps(line) + "\n")
    init_schema(db)
    load_records(db, "jsonl", [path], reader("jsonl")([path]))

    def argkb(*args: str) -> str:
        result = CliRunner().invoke(main, list(args), env={"NEO4J_URI": neo4j_uri})
        assert result.exit_code == 0, result.output
        return result.stdout

    assert argkb("sentences").startswith("split 1 premise into 2 sentences in ")
    assert argkb("sentences") == (
        "sentences: nothing to split, no premise is new or changed since the last run "
        "(--all splits every one again)\n"
    )
    assert argkb("sentences", "--all").startswith("split 1 premise into 2 sentences in ")
